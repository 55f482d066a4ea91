-- The read scope: which entries a `project`, `org` or `agent` read returns to the caller.
CREATE OR REPLACE FUNCTION public.cairn_in_scope(e_scope text, e_project text, e_agent text, p_scope text, p_project text, p_agent text)
 RETURNS boolean
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE p_scope
    WHEN 'project' THEN e_scope = 'org'
      OR (e_scope = 'project' AND e_project = p_project)
      OR (e_scope = 'agent' AND e_agent = p_agent AND (e_project IS NULL OR e_project = p_project))
    WHEN 'org' THEN e_scope IN ('org', 'project') OR (e_scope = 'agent' AND e_agent = p_agent)
    ELSE e_scope = 'agent' AND e_agent = p_agent
      AND (p_project IS NULL OR e_project IS NULL OR e_project = p_project)
  END
$function$;
