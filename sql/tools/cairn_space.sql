-- space: the caller's view of the org in the read scope (overview, or the ledger, projects,
-- agents, a brief's candidates or one entry's history), its stored bytes read from the org's
-- usage row (not summed over every entry), and the plan's quotas and their use. Counts come from
-- scope_counts and agent_activity, kept as rows change: no view reads more than the org's
-- projects, agents and the page of events it returns.
CREATE OR REPLACE FUNCTION public.cairn_space(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text;
  v_scope text;
  v_view text := coalesce(p_args->>'view', 'overview');
  v_limit int := coalesce((p_args->>'limit')::int, 50);
  v_from numeric := 0;
  v_quota jsonb;
  v_result jsonb;
  v_caller jsonb;
  v_entry uuid;
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  -- counts, activity and the ledger with every write of the org answered so far (cairn_org_seal)
  PERFORM cairn_org_seal(v_org, true);
  v_proj := cairn_read_project(v_org, p_project, p_agent);
  v_scope := cairn_read_scope(p_args->>'scope', v_proj);
  -- the project read, for what replaced an org entry there (cairn_replacement)
  PERFORM set_config('cairn.project', coalesce(v_proj, ''), true);
  -- every view says who the caller acts as: a key bound to an agent is that agent
  v_caller := jsonb_build_object('caller', jsonb_build_object('agent', p_agent,
    'verified', coalesce(current_setting('cairn.verified', true), '') = 'on'));
  IF v_view = 'ledger' THEN
    -- entry_id: an id (a forgotten entry's events stay), or a handle of an entry the caller reads
    v_entry := cairn_entry_ref(v_org, p_args->>'entry_id', p_agent, 'entry_id', 'entry_id: entry');
    -- since: from the first event at or after it (events are appended in time order), so that
    -- the newest-first scan stops where the window starts
    IF p_args ? 'since' THEN
      SELECT coalesce(min(l.seq), 'infinity'::numeric) INTO v_from FROM (SELECT seq FROM ledger
        WHERE org_id = v_org AND at >= (p_args->>'since')::timestamptz ORDER BY at LIMIT 1) l;
    END IF;
    SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb) INTO v_result
    FROM (SELECT * FROM ledger l
      WHERE l.org_id = v_org AND l.seq >= v_from
        AND (NOT p_args ? 'entry_id' OR l.entry_id = v_entry)
        AND (NOT p_args ? 'agent' OR l.agent = p_args->>'agent' AND coalesce(l.actor_kind, 'agent') = 'agent')
        AND (NOT p_args ? 'since' OR l.at >= (p_args->>'since')::timestamptz)
        AND (NOT l.private OR l.agent = p_agent)
      ORDER BY l.seq DESC LIMIT v_limit) l;
    RETURN v_caller || jsonb_build_object('events', v_result);
  ELSIF v_view = 'projects' THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('project', p.canonical, 'created_at', p.created_at,
        'entries', coalesce(c.n, 0) - coalesce(x.n, 0)) ORDER BY p.canonical), '[]'::jsonb) INTO v_result
    FROM projects p
    LEFT JOIN (SELECT project_key, sum(n) AS n FROM scope_counts
      WHERE org_id = v_org AND kind <> 'artifact' AND (scope <> 'agent' OR agent_key = p_agent)
      GROUP BY project_key) c ON c.project_key = p.canonical
    LEFT JOIN (SELECT e.project, count(*) AS n FROM cairn_expired(v_org, p_agent, 'org', NULL) e
      GROUP BY e.project) x ON x.project = p.canonical
    WHERE p.org_id = v_org AND cairn_read_project(v_org, p.canonical, p_agent) IS NOT NULL;
    RETURN v_caller || jsonb_build_object('projects', v_result);
  ELSIF v_view = 'brief' THEN
    RETURN v_caller || jsonb_build_object('project', v_proj, 'candidates',
      cairn_brief(v_org, v_proj, v_scope, p_agent, coalesce((p_args->>'per_kind')::int, 40),
        coalesce(p_args->'known', '{}'::jsonb)));
  ELSIF v_view = 'history' THEN
    RETURN v_caller || jsonb_build_object('history', cairn_history(v_org, p_agent,
      cairn_entry_ref(v_org, p_args->>'entry_id', p_agent, 'entry_id', 'entry_id: entry'), v_proj));
  ELSIF v_view = 'agents' THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('agent', a.agent, 'events', a.n,
        'first_at', a.first_at, 'last_at', a.last_at) ORDER BY a.last_at DESC), '[]'::jsonb)
      INTO v_result
    -- another agent's private events are not counted, nor its time of them
    FROM (SELECT agent, sum(events) AS n, min(first_at) AS first_at, max(last_at) AS last_at
          FROM agent_activity WHERE org_id = v_org AND (NOT private OR agent = p_agent)
          GROUP BY agent) a;
    RETURN v_caller || jsonb_build_object('agents', v_result);
  END IF;
  v_quota := cairn_usage_for(v_org, 0);
  RETURN v_caller || jsonb_build_object(
    'org', (SELECT jsonb_build_object('id', o.id, 'name', o.name) FROM orgs o WHERE o.id = v_org),
    'project', v_proj,
    'scope', v_scope,
    'counts', (SELECT coalesce(jsonb_object_agg(k.kind, k.n), '{}'::jsonb) FROM (
      SELECT c.kind, sum(c.n) - coalesce(max(x.n), 0) AS n FROM scope_counts c
      LEFT JOIN (SELECT e.kind, count(*) AS n FROM cairn_expired(v_org, p_agent, v_scope, v_proj) e
        GROUP BY e.kind) x ON x.kind = c.kind
      WHERE c.org_id = v_org AND c.kind <> 'artifact'
        AND cairn_in_scope(c.scope, nullif(c.project_key, ''), c.agent_key, v_scope, v_proj, p_agent)
      GROUP BY c.kind HAVING sum(c.n) - coalesce(max(x.n), 0) > 0) k),
    'artifacts', (SELECT jsonb_build_object('count', coalesce(sum(c.n), 0), 'bytes', coalesce(sum(c.bytes), 0))
      FROM scope_counts c WHERE c.org_id = v_org AND c.kind = 'artifact'
        AND cairn_in_scope(c.scope, nullif(c.project_key, ''), c.agent_key, v_scope, v_proj, p_agent)),
    'stored_bytes', v_quota->'stored_bytes',
    'quota', v_quota,
    'recent', (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb)
      FROM (SELECT * FROM ledger WHERE org_id = v_org AND (NOT private OR agent = p_agent)
        ORDER BY seq DESC LIMIT 10) l)
  );
END $function$;
