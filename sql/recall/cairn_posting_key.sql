-- The partition of the postings an entry's keys are filed under: its project ('' for none), or,
-- for an entry private to its agent, a partition of that agent's own (chr(1), the agent, chr(1),
-- the project: no canonical project begins with a control character). A reader's candidates are
-- read from the partitions it may see, so other agents' private entries never take their place
-- (docs/design.md, "Private means absent").
CREATE OR REPLACE FUNCTION public.cairn_posting_key(p_scope text, p_project text, p_agent text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE WHEN p_scope = 'agent' THEN chr(1) || p_agent || chr(1) || coalesce(p_project, '')
    ELSE coalesce(p_project, '') END
$function$;
