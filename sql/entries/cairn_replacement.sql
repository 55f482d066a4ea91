-- An entry's replacement as the statement's reader sees it: superseded_by, or for an org entry a
-- project entry replaced for its project only (superseded_in), that replacement when the read is
-- in that project (cairn.project, left by the reading tool: cairn_recall_for, cairn_space). Null
-- everywhere else. A read as of a time has had later replacements taken off (cairn_entry_at).
CREATE OR REPLACE FUNCTION public.cairn_replacement(e entries)
 RETURNS uuid
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(e.superseded_by, (e.superseded_in ->> nullif(current_setting('cairn.project', true), ''))::uuid)
$function$;
