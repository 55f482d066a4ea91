-- space view brief: the candidates of a project's briefing, at most p_per of each kind, newest
-- first; src/domain/brief.ts ranks them across sections, drops near-duplicates and fits them to
-- the budget. Current entries only (not superseded, not expired) in the caller's read scope:
--   plans        active or draft plans (an active plan untouched for 14 days is "stale")
--   decisions    decisions
--   conventions  memories and the caller's notes tagged or worded as a rule
--   failures     observations of the last 30 days tagged or worded as a failure
-- Each kind is read newest first on entries_org_kind_created_idx, so the cost does not grow with
-- the org.
CREATE OR REPLACE FUNCTION public.cairn_brief(p_org uuid, p_proj text, p_scope text, p_agent text, p_per integer)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(jsonb_agg(jsonb_build_object('section', c.section, 'entry', c.entry)
    ORDER BY k.n, c.created_at DESC, c.id DESC), '[]'::jsonb)
  FROM unnest(ARRAY['plan', 'decision', 'memory', 'note', 'observation']) WITH ORDINALITY AS k(kind, n)
  CROSS JOIN LATERAL (
    SELECT e.created_at, e.id, cairn_entry_json(e) AS entry,
      CASE e.kind
        WHEN 'plan' THEN CASE WHEN e.status = 'active' AND e.updated_at < now() - interval '14 days'
          THEN 'stale' ELSE 'plans' END
        WHEN 'decision' THEN 'decisions'
        WHEN 'observation' THEN 'failures'
        ELSE 'conventions'
      END AS section
    FROM entries e
    WHERE e.org_id = p_org AND e.kind = k.kind AND e.superseded_by IS NULL
      AND (e.expires_at IS NULL OR e.expires_at > now())
      AND cairn_in_scope(e.scope, e.project, e.agent, p_scope, p_proj, p_agent)
      AND CASE e.kind
        WHEN 'plan' THEN e.status IN ('active', 'draft')
        WHEN 'decision' THEN true
        WHEN 'observation' THEN e.created_at >= now() - interval '30 days'
          AND (e.tags && ARRAY['incident', 'bug', 'failure', 'outage', 'regression', 'flaky', 'error']
            OR e.content ~* ('\m(fail|fails|failed|failing|failure|errors?|exception|broke|broken|'
              'crash|crashed|crashes|crashing|crash-looped|timeouts?|timed out|flaky|regression|'
              'incident|outage|oom|oomkilled|panic|deadlock|5\d\d)\M'))
        ELSE e.tags && ARRAY['convention', 'conventions', 'style', 'guideline', 'guidelines', 'howto',
            'how-to', 'rule', 'rules', 'policy', 'process', 'workflow', 'gotcha', 'gotchas']
          OR e.content ~* ('\m(always|never|must|should|shouldn''t|don''t|do not|avoid|prefer|'
            'convention|required|requires|make sure|instead of|only)\M')
      END
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT p_per
  ) c
$function$;
