-- Row-level security and the per-call functions.
--
-- Every tool call is one statement, `SELECT cairn_<op>(key_hash, agent, project, args)`: the
-- function authenticates the key, sets the transaction-local `cairn.org`, resolves the project,
-- does the work and appends the ledger event, all in one database round trip. Row-level security
-- (forced, so it binds the table owner too) lets a statement see only the rows of `cairn.org`.
-- The service connects as role `cairn_app`, which does not bypass row-level security.
--
-- Errors raised here use SQLSTATE codes the service maps to typed errors:
-- CN401 unauthorized, CN403 forbidden, CN404 not found, CN409 conflict, CN422 invalid.

DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    CREATE ROLE cairn_app NOLOGIN NOBYPASSRLS;
  END IF;
EXCEPTION
  WHEN duplicate_object OR unique_violation THEN NULL;
  WHEN insufficient_privilege THEN
    RAISE NOTICE 'cairn: cannot create role cairn_app here; connect with a role that has no BYPASSRLS';
END $$;
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT USAGE ON SCHEMA public TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT ON orgs, projects, ledger TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE ON api_keys, ledger_heads TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON entries TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT, DELETE ON artifacts, object_ids TO cairn_app';
    BEGIN
      EXECUTE format('GRANT cairn_app TO %I', current_user);
    EXCEPTION WHEN others THEN NULL;
    END;
  END IF;
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_org() RETURNS uuid LANGUAGE sql STABLE AS $$
  SELECT nullif(current_setting('cairn.org', true), '')::uuid
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_operator() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('cairn.operator', true), '') = 'on'
$$;
--> statement-breakpoint
ALTER TABLE orgs ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE orgs FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY orgs_isolation ON orgs USING (id = cairn_org() OR cairn_operator());
--> statement-breakpoint
ALTER TABLE api_keys ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE api_keys FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
-- A key row is also visible to the statement that presents its hash: that is how a key is found
-- before its org is known. Knowing the hash means holding the key.
CREATE POLICY api_keys_isolation ON api_keys USING (
  org_id = cairn_org() OR cairn_operator()
  OR hash = nullif(current_setting('cairn.key_hash', true), '')
);
--> statement-breakpoint
ALTER TABLE projects ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE projects FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY projects_isolation ON projects USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE entries ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE entries FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY entries_isolation ON entries USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE artifacts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE artifacts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY artifacts_isolation ON artifacts USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE ledger ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE ledger FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY ledger_isolation ON ledger USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE ledger_heads ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE ledger_heads FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY ledger_heads_isolation ON ledger_heads USING (org_id = cairn_org());
--> statement-breakpoint
CREATE FUNCTION cairn_sha256(p text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT encode(sha256(convert_to(p, 'UTF8')), 'hex')
$$;
--> statement-breakpoint
-- Authenticates a key by its hash and pins the statement to the key's org.
CREATE FUNCTION cairn_auth(p_key_hash text) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_key uuid;
  v_org uuid;
  v_last timestamptz;
BEGIN
  PERFORM set_config('cairn.key_hash', coalesce(p_key_hash, ''), true);
  SELECT id, org_id, last_used_at INTO v_key, v_org, v_last
    FROM api_keys WHERE hash = p_key_hash AND revoked_at IS NULL;
  IF v_org IS NULL THEN
    RAISE EXCEPTION 'invalid or revoked API key' USING ERRCODE = 'CN401';
  END IF;
  PERFORM set_config('cairn.key_hash', '', true);
  PERFORM set_config('cairn.org', v_org::text, true);
  -- The rest of the statement runs as cairn_app, bound by row-level security, whatever role
  -- the driver connected as (Neon's HTTP driver cannot choose one per connection).
  IF current_user <> 'cairn_app' AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app')
     AND pg_has_role(current_user, 'cairn_app', 'MEMBER') THEN
    PERFORM set_config('role', 'cairn_app', true);
  END IF;
  IF v_last IS NULL OR v_last < now() - interval '1 minute' THEN
    UPDATE api_keys SET last_used_at = now() WHERE id = v_key;
  END IF;
  RETURN v_org;
END $$;
--> statement-breakpoint
-- Resolves a canonical project id. Writes register it; reads fall back to NULL (org-wide) for a
-- project the org has never used. A lookup error also falls back, as the interface requires.
CREATE FUNCTION cairn_project(p_org uuid, p_project text, p_register boolean) RETURNS text
LANGUAGE plpgsql AS $$
BEGIN
  IF p_project IS NULL THEN
    RETURN NULL;
  END IF;
  BEGIN
    IF p_register THEN
      INSERT INTO projects (org_id, canonical) VALUES (p_org, p_project) ON CONFLICT DO NOTHING;
      RETURN p_project;
    END IF;
    PERFORM 1 FROM projects WHERE org_id = p_org AND canonical = p_project;
    IF FOUND THEN
      RETURN p_project;
    END IF;
    RETURN NULL;
  EXCEPTION WHEN others THEN
    RETURN NULL;
  END;
END $$;
--> statement-breakpoint
-- The write scope: `project` needs a resolved project and becomes `org` without one.
CREATE FUNCTION cairn_write_scope(p_requested text, p_default text, p_project text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN coalesce(p_requested, p_default) = 'project' AND p_project IS NULL THEN 'org'
    WHEN p_requested IS NULL AND p_default IS NULL THEN CASE WHEN p_project IS NULL THEN 'org' ELSE 'project' END
    ELSE coalesce(p_requested, p_default)
  END
$$;
--> statement-breakpoint
-- The read scope: which entries a `project`, `org` or `agent` read returns to the caller.
CREATE FUNCTION cairn_in_scope(
  e_scope text, e_project text, e_agent text, p_scope text, p_project text, p_agent text
) RETURNS boolean LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE p_scope
    WHEN 'project' THEN e_scope = 'org'
      OR (e_scope = 'project' AND e_project = p_project)
      OR (e_scope = 'agent' AND e_agent = p_agent AND (e_project IS NULL OR e_project = p_project))
    WHEN 'org' THEN e_scope IN ('org', 'project') OR (e_scope = 'agent' AND e_agent = p_agent)
    ELSE e_scope = 'agent' AND e_agent = p_agent
      AND (p_project IS NULL OR e_project IS NULL OR e_project = p_project)
  END
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_read_scope(p_requested text, p_project text) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT CASE
    WHEN p_requested = 'project' AND p_project IS NULL THEN 'org'
    ELSE coalesce(p_requested, CASE WHEN p_project IS NULL THEN 'org' ELSE 'project' END)
  END
$$;
--> statement-breakpoint
-- The canonical text of a ledger event that its hash covers: each field length-prefixed.
CREATE FUNCTION cairn_ledger_canonical(
  p_seq bigint, p_org uuid, p_at timestamptz, p_agent text, p_op text, p_entry uuid,
  p_project text, p_sha text, p_reason text
) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT string_agg(octet_length(f)::text || ':' || f, '' ORDER BY i)
  FROM unnest(ARRAY[
    p_seq::text, p_org::text, (extract(epoch FROM p_at) * 1000)::bigint::text, p_agent, p_op,
    coalesce(p_entry::text, ''), coalesce(p_project, ''), coalesce(p_sha, ''), coalesce(p_reason, '')
  ]) WITH ORDINALITY AS t(f, i)
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_ledger_append(
  p_org uuid, p_agent text, p_op text, p_entry uuid, p_project text, p_sha text, p_reason text
) RETURNS bigint LANGUAGE plpgsql AS $$
DECLARE
  v_seq bigint;
  v_prev text;
  v_at timestamptz;
  v_hash text;
BEGIN
  SELECT seq, hash INTO v_seq, v_prev FROM ledger_heads WHERE org_id = p_org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ledger head missing for org' USING ERRCODE = 'XX000';
  END IF;
  v_seq := v_seq + 1;
  v_at := date_trunc('milliseconds', clock_timestamp());
  v_hash := cairn_sha256(v_prev || cairn_ledger_canonical(
    v_seq, p_org, v_at, p_agent, p_op, p_entry, p_project, p_sha, p_reason));
  INSERT INTO ledger (org_id, seq, at, agent, op, entry_id, project, content_sha256, reason, prev_hash, hash)
    VALUES (p_org, v_seq, v_at, p_agent, p_op, p_entry, p_project, p_sha, p_reason, v_prev, v_hash);
  UPDATE ledger_heads SET seq = v_seq, hash = v_hash WHERE org_id = p_org;
  RETURN v_seq;
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_event_json(l ledger) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'seq', l.seq, 'at', l.at, 'agent', l.agent, 'op', l.op, 'entry_id', l.entry_id,
    'project', l.project, 'content_sha256', l.content_sha256, 'reason', l.reason,
    'prev_hash', l.prev_hash, 'hash', l.hash)
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_entry_json(e entries) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', e.id, 'kind', e.kind, 'content', e.content, 'rationale', e.rationale,
    'source', e.source, 'title', e.title, 'status', e.status, 'steps', e.steps,
    'tags', to_jsonb(e.tags), 'scope', e.scope, 'project', e.project, 'agent', e.agent,
    'metadata', e.metadata, 'created_at', e.created_at, 'updated_at', e.updated_at,
    'version', e.version, 'supersedes', e.supersedes, 'superseded_by', e.superseded_by,
    'expires_at', e.expires_at)
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_artifact_json(a artifacts) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object(
    'id', a.id, 'name', a.name, 'version', a.version, 'size', a.size, 'sha256', a.sha256,
    'content_type', a.content_type, 'scope', a.scope, 'project', a.project, 'agent', a.agent,
    'metadata', a.metadata, 'created_at', a.created_at)
$$;
--> statement-breakpoint
-- Raised for an id the caller cannot use: 403 when it belongs to another org, else not found.
-- An id in the caller's org that the caller may not see (another agent's private entry) is
-- "not found", revealing nothing.
CREATE FUNCTION cairn_missing(p_org uuid, p_id uuid, p_what text) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM entries WHERE org_id = p_org AND id = p_id)
     AND NOT EXISTS (SELECT 1 FROM artifacts WHERE org_id = p_org AND id = p_id)
     AND EXISTS (SELECT 1 FROM object_ids WHERE id = p_id) THEN
    RAISE EXCEPTION 'this id belongs to another org' USING ERRCODE = 'CN403';
  END IF;
  RAISE EXCEPTION '% % not found', p_what, p_id USING ERRCODE = 'CN404';
END $$;
--> statement-breakpoint
-- remember, observe, decide, note: one new entry (or, for remember, the existing duplicate).
CREATE FUNCTION cairn_write(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_kind text := p_args->>'kind';
  v_scope text := cairn_write_scope(p_args->>'scope', p_args->>'default_scope', v_proj);
  v_content text := p_args->>'content';
  v_sha text := cairn_sha256(p_args->>'content');
  v_supersedes uuid := (p_args->>'supersedes')::uuid;
  v_old entries;
  v_e entries;
BEGIN
  IF v_scope = 'org' THEN
    v_proj := NULL;
  END IF;
  IF v_supersedes IS NULL AND coalesce((p_args->>'dedup')::boolean, false) THEN
    SELECT * INTO v_e FROM entries
      WHERE org_id = v_org AND content_sha256 = v_sha AND kind = v_kind AND scope = v_scope
        AND project IS NOT DISTINCT FROM v_proj AND (scope <> 'agent' OR agent = p_agent)
        AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > now())
        AND content = v_content
      ORDER BY created_at DESC LIMIT 1;
    IF FOUND THEN
      RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'deduplicated', true, 'project', v_proj);
    END IF;
  END IF;
  IF v_supersedes IS NOT NULL THEN
    SELECT * INTO v_old FROM entries
      WHERE org_id = v_org AND id = v_supersedes AND (scope <> 'agent' OR agent = p_agent)
      FOR UPDATE;
    IF NOT FOUND THEN
      PERFORM cairn_missing(v_org, v_supersedes, 'supersedes: entry');
    END IF;
    IF v_old.kind <> v_kind THEN
      RAISE EXCEPTION 'supersedes: % is a %, not a %', v_supersedes, v_old.kind, v_kind USING ERRCODE = 'CN422';
    END IF;
    IF v_old.superseded_by IS NOT NULL THEN
      RAISE EXCEPTION 'supersedes: % is already superseded by %; supersede that one instead',
        v_supersedes, v_old.superseded_by USING ERRCODE = 'CN409';
    END IF;
  END IF;
  INSERT INTO entries (id, org_id, kind, content, content_sha256, rationale, source, tags, scope,
      project, agent, metadata, supersedes, expires_at)
    VALUES ((p_args->>'id')::uuid, v_org, v_kind, v_content, v_sha, p_args->>'rationale',
      p_args->>'source',
      ARRAY(SELECT jsonb_array_elements_text(coalesce(p_args->'tags', '[]'::jsonb))),
      v_scope, v_proj, p_agent, coalesce(p_args->'metadata', '{}'::jsonb), v_supersedes,
      CASE WHEN p_args ? 'ttl_seconds'
        THEN now() + make_interval(secs => (p_args->>'ttl_seconds')::double precision) END)
    RETURNING * INTO v_e;
  INSERT INTO object_ids (id) VALUES (v_e.id);
  IF v_supersedes IS NOT NULL THEN
    UPDATE entries SET superseded_by = v_e.id, updated_at = now()
      WHERE org_id = v_org AND id = v_supersedes;
  END IF;
  PERFORM cairn_ledger_append(v_org, p_agent, p_args->>'op', v_e.id, v_proj, v_sha, NULL);
  RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'deduplicated', false, 'project', v_proj);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_plan_content(p_title text, p_steps jsonb) RETURNS text
LANGUAGE sql IMMUTABLE AS $$
  SELECT p_title || coalesce((
    SELECT string_agg(E'\n- [' || (s->>'status') || '] ' || (s->>'text'), '' ORDER BY i)
    FROM jsonb_array_elements(coalesce(p_steps, '[]'::jsonb)) WITH ORDINALITY AS t(s, i)), '')
$$;
--> statement-breakpoint
-- plan: create, or update title / steps / status of an existing plan. The allowed status moves
-- come from the caller (the domain owns the rules): `allowed_from` lists the statuses from which
-- the requested status may be reached, `final` the statuses that end a plan.
CREATE FUNCTION cairn_plan(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_id uuid := (p_args->>'id')::uuid;
  v_scope text;
  v_status text;
  v_title text;
  v_steps jsonb;
  v_content text;
  v_e entries;
BEGIN
  IF coalesce((p_args->>'update')::boolean, false) THEN
    SELECT * INTO v_e FROM entries
      WHERE org_id = v_org AND id = v_id AND (scope <> 'agent' OR agent = p_agent) FOR UPDATE;
    IF NOT FOUND THEN
      PERFORM cairn_missing(v_org, v_id, 'plan');
    END IF;
    IF v_e.kind <> 'plan' THEN
      RAISE EXCEPTION 'id: % is a %, not a plan', v_id, v_e.kind USING ERRCODE = 'CN422';
    END IF;
    IF v_e.status IN (SELECT jsonb_array_elements_text(p_args->'final')) THEN
      RAISE EXCEPTION 'plan % is %, which is final; create a new plan instead', v_id, v_e.status
        USING ERRCODE = 'CN409';
    END IF;
    v_status := coalesce(p_args->>'status', v_e.status);
    IF v_status <> v_e.status
       AND v_e.status NOT IN (SELECT jsonb_array_elements_text(p_args->'allowed_from')) THEN
      RAISE EXCEPTION 'status: a plan cannot move from % to %', v_e.status, v_status
        USING ERRCODE = 'CN409';
    END IF;
    v_title := coalesce(p_args->>'title', v_e.title);
    v_steps := CASE WHEN p_args ? 'steps' THEN p_args->'steps' ELSE v_e.steps END;
    v_content := cairn_plan_content(v_title, v_steps);
    UPDATE entries SET title = v_title, steps = v_steps, status = v_status, content = v_content,
        content_sha256 = cairn_sha256(v_content), version = version + 1, updated_at = now()
      WHERE org_id = v_org AND id = v_id RETURNING * INTO v_e;
    PERFORM cairn_ledger_append(v_org, p_agent, 'plan.update', v_e.id, v_e.project,
      v_e.content_sha256, NULL);
    RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'project', v_proj);
  END IF;
  v_scope := cairn_write_scope(p_args->>'scope', NULL, v_proj);
  IF v_scope = 'org' THEN
    v_proj := NULL;
  END IF;
  v_steps := coalesce(p_args->'steps', '[]'::jsonb);
  v_content := cairn_plan_content(p_args->>'title', v_steps);
  INSERT INTO entries (id, org_id, kind, content, content_sha256, title, status, steps, tags,
      scope, project, agent, metadata)
    VALUES (v_id, v_org, 'plan', v_content, cairn_sha256(v_content), p_args->>'title',
      p_args->>'status', v_steps,
      ARRAY(SELECT jsonb_array_elements_text(coalesce(p_args->'tags', '[]'::jsonb))),
      v_scope, v_proj, p_agent, coalesce(p_args->'metadata', '{}'::jsonb))
    RETURNING * INTO v_e;
  INSERT INTO object_ids (id) VALUES (v_e.id);
  PERFORM cairn_ledger_append(v_org, p_agent, 'plan.create', v_e.id, v_proj, v_e.content_sha256, NULL);
  RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'project', v_proj);
END $$;
--> statement-breakpoint
-- recall: ranked entries visible to the caller in the read scope.
CREATE FUNCTION cairn_recall(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, false);
  v_scope text := cairn_read_scope(p_args->>'scope', v_proj);
  v_query text := coalesce(p_args->>'query', '');
  v_like text := p_args->>'like';
  v_tsq tsquery;
  v_kinds text[] := CASE WHEN p_args ? 'kinds'
    THEN ARRAY(SELECT jsonb_array_elements_text(p_args->'kinds')) END;
  v_tags text[] := CASE WHEN p_args ? 'tags'
    THEN ARRAY(SELECT jsonb_array_elements_text(p_args->'tags')) END;
  v_author text := p_args->>'agent';
  v_since timestamptz := (p_args->>'since')::timestamptz;
  v_until timestamptz := (p_args->>'until')::timestamptz;
  v_all boolean := coalesce((p_args->>'include_superseded')::boolean, false);
  v_hits jsonb;
BEGIN
  IF v_query <> '' THEN
    v_tsq := replace(plainto_tsquery('english', v_query)::text, ' & ', ' | ')::tsquery;
  END IF;
  SELECT coalesce(jsonb_agg(h.hit ORDER BY h.rn), '[]'::jsonb) INTO v_hits FROM (
    SELECT cairn_entry_json(e) || jsonb_build_object('score', round(s.score::numeric, 6)) AS hit,
      row_number() OVER (ORDER BY s.score DESC, e.created_at DESC, e.id DESC) AS rn
    FROM entries e
    CROSS JOIN LATERAL (SELECT
      CASE WHEN v_tsq IS NULL THEN 0 ELSE ts_rank(e.search, v_tsq) END
      + CASE WHEN v_like IS NOT NULL AND e.content ILIKE v_like THEN 1 ELSE 0 END AS score) s
    WHERE e.org_id = v_org
      AND cairn_in_scope(e.scope, e.project, e.agent, v_scope, v_proj, p_agent)
      AND (e.expires_at IS NULL OR e.expires_at > now())
      AND (v_all OR e.superseded_by IS NULL)
      AND (v_kinds IS NULL OR e.kind = ANY(v_kinds))
      AND (v_tags IS NULL OR e.tags && v_tags)
      AND (v_author IS NULL OR e.agent = v_author)
      AND (v_since IS NULL OR e.created_at >= v_since)
      AND (v_until IS NULL OR e.created_at < v_until)
      AND (v_query = '' OR e.search @@ v_tsq OR e.content ILIKE v_like)
    ORDER BY s.score DESC, e.created_at DESC, e.id DESC
    LIMIT coalesce((p_args->>'limit')::int, 10)
  ) h;
  RETURN jsonb_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope);
END $$;
--> statement-breakpoint
-- space: what the org holds, seen from the caller.
CREATE FUNCTION cairn_space(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, false);
  v_scope text := cairn_read_scope(p_args->>'scope', v_proj);
  v_view text := coalesce(p_args->>'view', 'overview');
  v_limit int := coalesce((p_args->>'limit')::int, 50);
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
  ELSIF v_view = 'agents' THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('agent', a.agent, 'events', a.n,
        'first_at', a.first_at, 'last_at', a.last_at) ORDER BY a.last_at DESC), '[]'::jsonb)
      INTO v_result
    FROM (SELECT agent, count(*) AS n, min(at) AS first_at, max(at) AS last_at
      FROM ledger WHERE org_id = v_org GROUP BY agent) a;
    RETURN jsonb_build_object('agents', v_result);
  END IF;
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
    'stored_bytes', (SELECT coalesce(sum(octet_length(e.content)), 0) FROM entries e WHERE e.org_id = v_org)
      + (SELECT coalesce(sum(a.size), 0) FROM artifacts a WHERE a.org_id = v_org),
    'recent', (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb)
      FROM (SELECT * FROM ledger WHERE org_id = v_org ORDER BY seq DESC LIMIT 10) l)
  );
END $$;
--> statement-breakpoint
-- artifact_put: records a new version whose bytes the service has already written under the
-- org's prefix. `org_id` is the org the bytes were written for; it must be the key's org.
CREATE FUNCTION cairn_artifact_put(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_scope text := cairn_write_scope(p_args->>'scope', NULL, v_proj);
  v_name text := p_args->>'name';
  v_version int;
  v_a artifacts;
BEGIN
  IF v_org <> (p_args->>'org_id')::uuid THEN
    RAISE EXCEPTION 'invalid or revoked API key' USING ERRCODE = 'CN401';
  END IF;
  IF v_scope = 'org' THEN
    v_proj := NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(v_org::text || '/' || v_name, 0));
  SELECT coalesce(max(version), 0) + 1 INTO v_version FROM artifacts
    WHERE org_id = v_org AND name = v_name AND scope = v_scope
      AND project IS NOT DISTINCT FROM v_proj AND (scope <> 'agent' OR agent = p_agent);
  INSERT INTO artifacts (id, org_id, name, version, size, sha256, content_type, scope, project,
      agent, blob_key, metadata)
    VALUES ((p_args->>'id')::uuid, v_org, v_name, v_version, (p_args->>'size')::bigint,
      p_args->>'sha256', p_args->>'content_type', v_scope, v_proj, p_agent, p_args->>'blob_key',
      coalesce(p_args->'metadata', '{}'::jsonb))
    RETURNING * INTO v_a;
  INSERT INTO object_ids (id) VALUES (v_a.id);
  PERFORM cairn_ledger_append(v_org, p_agent, 'artifact_put', v_a.id, v_proj, v_a.sha256, NULL);
  RETURN jsonb_build_object('artifact', cairn_artifact_json(v_a), 'project', v_proj);
END $$;
--> statement-breakpoint
-- artifact_get: one version by id, or by name (the caller's project first, then org-wide; the
-- latest version unless one is named).
CREATE FUNCTION cairn_artifact_get(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, false);
  v_a artifacts;
BEGIN
  IF p_args ? 'id' THEN
    SELECT * INTO v_a FROM artifacts
      WHERE org_id = v_org AND id = (p_args->>'id')::uuid AND (scope <> 'agent' OR agent = p_agent);
    IF NOT FOUND THEN
      PERFORM cairn_missing(v_org, (p_args->>'id')::uuid, 'artifact');
    END IF;
  ELSE
    SELECT * INTO v_a FROM artifacts
      WHERE org_id = v_org AND name = p_args->>'name' AND (scope <> 'agent' OR agent = p_agent)
        AND (project IS NULL OR project = v_proj)
        AND (NOT p_args ? 'scope' OR scope = p_args->>'scope')
        AND (NOT p_args ? 'version' OR version = (p_args->>'version')::int)
      ORDER BY (project IS NOT NULL) DESC, created_at DESC, version DESC LIMIT 1;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'artifact "%"% not found', p_args->>'name',
        CASE WHEN p_args ? 'version' THEN ' version ' || (p_args->>'version') ELSE '' END
        USING ERRCODE = 'CN404';
    END IF;
  END IF;
  RETURN jsonb_build_object('artifact', cairn_artifact_json(v_a), 'blob_key', v_a.blob_key,
    'project', v_proj);
END $$;
--> statement-breakpoint
-- forget: deletes entries and artifact versions the caller can see; the ledger keeps one event per
-- id (who, when, reason, content hash). An id of another org refuses the whole call, so nothing
-- is forgotten by halves. Returns the blob keys whose bytes the service must delete.
CREATE FUNCTION cairn_forget(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_ids uuid[] := ARRAY(SELECT DISTINCT jsonb_array_elements_text(p_args->'ids')::uuid);
  v_reason text := p_args->>'reason';
  v_done uuid[] := '{}';
  v_blobs text[] := '{}';
  r record;
BEGIN
  IF EXISTS (SELECT 1 FROM object_ids o WHERE o.id = ANY(v_ids)
      AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.org_id = v_org AND e.id = o.id)
      AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.org_id = v_org AND a.id = o.id)) THEN
    RAISE EXCEPTION 'one of these ids belongs to another org; nothing was forgotten'
      USING ERRCODE = 'CN403';
  END IF;
  FOR r IN DELETE FROM entries WHERE org_id = v_org AND id = ANY(v_ids)
      AND (scope <> 'agent' OR agent = p_agent)
      RETURNING id, project, content_sha256 LOOP
    v_done := v_done || r.id;
    PERFORM cairn_ledger_append(v_org, p_agent, 'forget', r.id, r.project, r.content_sha256, v_reason);
  END LOOP;
  UPDATE entries SET superseded_by = NULL, updated_at = now()
    WHERE org_id = v_org AND superseded_by = ANY(v_done);
  FOR r IN DELETE FROM artifacts WHERE org_id = v_org AND id = ANY(v_ids)
      AND (scope <> 'agent' OR agent = p_agent)
      RETURNING id, project, sha256, blob_key LOOP
    v_done := v_done || r.id;
    v_blobs := v_blobs || r.blob_key;
    PERFORM cairn_ledger_append(v_org, p_agent, 'forget', r.id, r.project, r.sha256, v_reason);
  END LOOP;
  DELETE FROM object_ids WHERE id = ANY(v_done);
  RETURN jsonb_build_object(
    'forgotten', to_jsonb(v_done),
    'not_found', to_jsonb(ARRAY(SELECT i FROM unnest(v_ids) i WHERE i <> ALL(v_done))),
    'blob_keys', to_jsonb(v_blobs));
END $$;
--> statement-breakpoint
-- For requests that carry no tool call (initialize, tools/list, GET): is the key valid?
CREATE FUNCTION cairn_whoami(p_key_hash text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
BEGIN
  RETURN jsonb_build_object('org_id', v_org);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_key_json(k api_keys) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', k.id, 'org_id', k.org_id, 'name', k.name, 'prefix', k.prefix,
    'created_by', k.created_by, 'created_at', k.created_at, 'last_used_at', k.last_used_at,
    'revoked_at', k.revoked_at)
$$;
--> statement-breakpoint
-- Operator functions (CLI and /admin). p_key: {id, hash, prefix, name}.
CREATE FUNCTION cairn_admin_create_org(p_org uuid, p_name text, p_key jsonb, p_actor text)
RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO orgs (id, name) VALUES (p_org, p_name);
  INSERT INTO ledger_heads (org_id, seq, hash) VALUES (p_org, 0, repeat('0', 64));
  RETURN jsonb_build_object('org', jsonb_build_object('id', p_org, 'name', p_name),
    'key', cairn_admin_create_key(p_org, p_key, p_actor));
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_admin_create_key(p_org uuid, p_key jsonb, p_actor text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_k api_keys;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO api_keys (id, org_id, hash, prefix, name, created_by)
    VALUES ((p_key->>'id')::uuid, p_org, p_key->>'hash', p_key->>'prefix', p_key->>'name', p_actor)
    RETURNING * INTO v_k;
  PERFORM cairn_ledger_append(p_org, p_actor, 'key.create', v_k.id, NULL, NULL, v_k.name);
  RETURN cairn_key_json(v_k);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_admin_revoke_key(p_key_id uuid, p_actor text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_k api_keys;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  SELECT * INTO v_k FROM api_keys WHERE id = p_key_id;
  PERFORM set_config('cairn.operator', '', true);
  IF v_k.id IS NULL THEN
    RAISE EXCEPTION 'key % not found', p_key_id USING ERRCODE = 'CN404';
  END IF;
  PERFORM set_config('cairn.org', v_k.org_id::text, true);
  IF v_k.revoked_at IS NULL THEN
    UPDATE api_keys SET revoked_at = now() WHERE id = p_key_id RETURNING * INTO v_k;
    PERFORM cairn_ledger_append(v_k.org_id, p_actor, 'key.revoke', v_k.id, NULL, NULL, v_k.name);
  END IF;
  RETURN cairn_key_json(v_k);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_admin_list_keys(p_org uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_keys jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  SELECT coalesce(jsonb_agg(cairn_key_json(k) ORDER BY k.created_at), '[]'::jsonb) INTO v_keys
    FROM api_keys k WHERE k.org_id = p_org;
  RETURN v_keys;
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_admin_list_orgs() RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_orgs jsonb;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'created_at', o.created_at)
      ORDER BY o.created_at), '[]'::jsonb) INTO v_orgs FROM orgs o;
  PERFORM set_config('cairn.operator', '', true);
  RETURN v_orgs;
END $$;
--> statement-breakpoint
-- A page of an org's ledger, in order, for the verifier.
CREATE FUNCTION cairn_admin_ledger(p_org uuid, p_after bigint, p_limit int)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_events jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq), '[]'::jsonb) INTO v_events
    FROM (SELECT * FROM ledger WHERE org_id = p_org AND seq > p_after ORDER BY seq LIMIT p_limit) l;
  RETURN v_events;
END $$;
