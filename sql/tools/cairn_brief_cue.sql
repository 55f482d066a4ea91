-- Whether an entry may appear in a brief (space view brief), before time and scope: an active or
-- draft plan, any decision, an observation tagged or worded as a failure, a memory or note tagged
-- or worded as a rule. It is the predicate of the partial indexes the brief walks
-- (entries_brief_shared_idx, entries_brief_project_idx, entries_brief_private_idx: drizzle/0017),
-- so a brief reads only entries that qualify, whatever the org's size. A change here must rebuild
-- those indexes (REINDEX) in a migration.
CREATE OR REPLACE FUNCTION public.cairn_brief_cue(p_kind text, p_status text, p_tags text[], p_content text)
 RETURNS boolean
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN CASE p_kind
    WHEN 'plan' THEN coalesce(p_status IN ('active', 'draft'), false)
    WHEN 'decision' THEN true
    WHEN 'observation' THEN
      p_tags && ARRAY['incident', 'bug', 'failure', 'outage', 'regression', 'flaky', 'error']
      OR p_content ~* ('\m(fail|fails|failed|failing|failure|errors?|exception|broke|broken|'
        'crash|crashed|crashes|crashing|crash-looped|timeouts?|timed out|flaky|regression|'
        'incident|outage|oom|oomkilled|panic|deadlock|5\d\d)\M')
    ELSE
      p_tags && ARRAY['convention', 'conventions', 'style', 'guideline', 'guidelines', 'howto',
        'how-to', 'rule', 'rules', 'policy', 'process', 'workflow', 'gotcha', 'gotchas']
      OR p_content ~* ('\m(always|never|must|should|shouldn''t|don''t|do not|avoid|prefer|'
        'convention|required|requires|make sure|instead of|only)\M')
  END;
END $function$;
