-- The scope a read covers: the requested one, or `project` when a project resolved, else `org`
-- (`project` without a project reads the org).
CREATE OR REPLACE FUNCTION public.cairn_read_scope(p_requested text, p_project text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN p_requested = 'project' AND p_project IS NULL THEN 'org'
    ELSE coalesce(p_requested, CASE WHEN p_project IS NULL THEN 'org' ELSE 'project' END)
  END
$function$;
