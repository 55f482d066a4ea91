-- space: the caller's view of the org in the read scope (overview, or the ledger, projects,
-- agents, a brief's candidates or one entry's history), its stored bytes read from the org's
-- usage row (not summed over every entry), and the plan's quotas and their use.
CREATE OR REPLACE FUNCTION public.cairn_space(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, false);
  v_scope text := cairn_read_scope(p_args->>'scope', v_proj);
  v_view text := coalesce(p_args->>'view', 'overview');
  v_limit int := coalesce((p_args->>'limit')::int, 50);
  v_quota jsonb;
  v_result jsonb;
BEGIN
  IF v_view = 'ledger' THEN
    SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb) INTO v_result
    FROM (SELECT * FROM ledger l
      WHERE l.org_id = v_org
        AND (NOT p_args ? 'entry_id' OR l.entry_id = (p_args->>'entry_id')::uuid)
        AND (NOT p_args ? 'agent' OR l.agent = p_args->>'agent')
        AND (NOT p_args ? 'since' OR l.at >= (p_args->>'since')::timestamptz)
      ORDER BY l.seq DESC LIMIT v_limit) l;
    RETURN jsonb_build_object('events', v_result);
  ELSIF v_view = 'projects' THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('project', p.canonical, 'created_at', p.created_at,
        'entries', (SELECT count(*) FROM entries e WHERE e.org_id = v_org AND e.project = p.canonical
          AND cairn_in_scope(e.scope, e.project, e.agent, 'org', NULL, p_agent)
          AND (e.expires_at IS NULL OR e.expires_at > now())))
      ORDER BY p.canonical), '[]'::jsonb) INTO v_result
    FROM projects p WHERE p.org_id = v_org;
    RETURN jsonb_build_object('projects', v_result);
  ELSIF v_view = 'brief' THEN
    RETURN jsonb_build_object('project', v_proj, 'candidates',
      cairn_brief(v_org, v_proj, v_scope, p_agent, coalesce((p_args->>'per_kind')::int, 40)));
  ELSIF v_view = 'history' THEN
    RETURN jsonb_build_object('history', cairn_history(v_org, p_agent, (p_args->>'entry_id')::uuid));
  ELSIF v_view = 'agents' THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('agent', a.agent, 'events', a.n,
        'first_at', a.first_at, 'last_at', a.last_at) ORDER BY a.last_at DESC), '[]'::jsonb)
      INTO v_result
    FROM (SELECT agent, count(*) AS n, min(at) AS first_at, max(at) AS last_at
      FROM ledger WHERE org_id = v_org GROUP BY agent) a;
    RETURN jsonb_build_object('agents', v_result);
  END IF;
  v_quota := cairn_usage_for(v_org, 0);
  RETURN jsonb_build_object(
    'org', (SELECT jsonb_build_object('id', o.id, 'name', o.name) FROM orgs o WHERE o.id = v_org),
    'project', v_proj,
    'scope', v_scope,
    'counts', (SELECT coalesce(jsonb_object_agg(k.kind, k.n), '{}'::jsonb) FROM (
      SELECT e.kind, count(*) AS n FROM entries e
      WHERE e.org_id = v_org AND cairn_in_scope(e.scope, e.project, e.agent, v_scope, v_proj, p_agent)
        AND (e.expires_at IS NULL OR e.expires_at > now())
      GROUP BY e.kind) k),
    'artifacts', (SELECT jsonb_build_object('count', count(*), 'bytes', coalesce(sum(a.size), 0))
      FROM artifacts a WHERE a.org_id = v_org
        AND cairn_in_scope(a.scope, a.project, a.agent, v_scope, v_proj, p_agent)),
    'stored_bytes', v_quota->'stored_bytes',
    'quota', v_quota,
    'recent', (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb)
      FROM (SELECT * FROM ledger WHERE org_id = v_org ORDER BY seq DESC LIMIT 10) l)
  );
END $function$;
