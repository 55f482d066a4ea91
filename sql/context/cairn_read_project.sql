-- The project a read names, when the reader may see anything in it: shared entries or artifacts
-- of the project, or its own private ones (scope_counts, kept by the org's seal); else null, and
-- the read falls back as for an unknown project. A project only another agent's private entries
-- are in is unknown to the reader, as if they did not exist (docs/design.md, "Private means
-- absent"). Two lookups by key.
CREATE OR REPLACE FUNCTION public.cairn_read_project(p_org uuid, p_project text, p_agent text)
 RETURNS text
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (
    SELECT p_project WHERE p_project IS NOT NULL AND (
      EXISTS (SELECT 1 FROM scope_counts c WHERE c.org_id = p_org AND c.scope = 'project'
                AND c.project_key = p_project AND c.agent_key = '' AND c.n > 0)
      OR EXISTS (SELECT 1 FROM scope_counts c WHERE c.org_id = p_org AND c.scope = 'agent'
                AND c.project_key = p_project AND c.agent_key = p_agent AND c.n > 0)));
END $function$;
