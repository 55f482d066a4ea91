-- A supersede link (an entry's `supersedes` or `superseded_by`) as the statement's reader may see
-- it: the id, unless it names an entry private to another agent (cairn.reader, set by cairn_agent;
-- a reader who is no agent, the dashboard, sees no private entry) — then null, so that a shared
-- entry that replaced its author's private note does not hand others the note's id.
CREATE OR REPLACE FUNCTION public.cairn_link_seen(p_org uuid, p_id uuid)
 RETURNS uuid
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN CASE WHEN p_id IS NULL OR NOT EXISTS (SELECT 1 FROM entries x WHERE x.org_id = p_org AND x.id = p_id
        AND x.scope = 'agent' AND x.agent IS DISTINCT FROM nullif(current_setting('cairn.reader', true), ''))
      THEN p_id END;
END $function$;
