CREATE TABLE "memberships" (
	"user_id" uuid NOT NULL,
	"org_id" uuid NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "memberships_user_id_org_id_pk" PRIMARY KEY("user_id","org_id")
);
--> statement-breakpoint
CREATE TABLE "sessions" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"user_id" uuid NOT NULL,
	"org_id" uuid,
	"csrf" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" uuid PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "memberships" ADD CONSTRAINT "memberships_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "memberships_org_idx" ON "memberships" USING btree ("org_id");--> statement-breakpoint
CREATE INDEX "sessions_user_idx" ON "sessions" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "users" USING btree ("email");--> statement-breakpoint
-- Dashboard accounts (docs/design.md, "Dashboard"): users, the orgs they belong to, browser
-- sessions. Tool calls never reach these tables: row-level security lets only the dashboard's
-- functions, which set cairn.dashboard for their statement, see them.
CREATE FUNCTION cairn_dashboard() RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT coalesce(current_setting('cairn.dashboard', true), '') = 'on'
$$;
--> statement-breakpoint
ALTER TABLE users ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE users FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY users_dashboard ON users USING (cairn_dashboard());
--> statement-breakpoint
ALTER TABLE memberships ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE memberships FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY memberships_dashboard ON memberships USING (cairn_dashboard());
--> statement-breakpoint
ALTER TABLE sessions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE sessions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY sessions_dashboard ON sessions USING (cairn_dashboard());
--> statement-breakpoint
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON users, memberships, sessions TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
-- The signed-in user of a session, their orgs and the one shown; NULL for an unknown or expired one.
CREATE FUNCTION cairn_dash_session(p_token_hash text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_s sessions;
  v_email text;
  v_orgs jsonb;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT * INTO v_s FROM sessions WHERE token_hash = p_token_hash AND expires_at > now();
  IF v_s.token_hash IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT email INTO v_email FROM users WHERE id = v_s.user_id;
  PERFORM set_config('cairn.operator', 'on', true); -- the names of the user's orgs
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'role', m.role) ORDER BY o.name, o.id), '[]')
    INTO v_orgs FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = v_s.user_id;
  PERFORM set_config('cairn.operator', '', true);
  RETURN jsonb_build_object('user_id', v_s.user_id, 'email', v_email, 'org_id', v_s.org_id, 'csrf', v_s.csrf,
    'orgs', v_orgs);
END $$;
--> statement-breakpoint
-- The user and org a session acts for: 401 without a live session, 403 outside the user's orgs.
CREATE FUNCTION cairn_dash_actor(p_token_hash text, OUT user_id uuid, OUT email text, OUT org_id uuid)
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT s.user_id, u.email, s.org_id INTO user_id, email, org_id
    FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = p_token_hash AND s.expires_at > now();
  IF user_id IS NULL THEN
    RAISE EXCEPTION 'sign in first' USING ERRCODE = 'CN401';
  END IF;
  IF org_id IS NULL OR NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = cairn_dash_actor.user_id
      AND m.org_id = cairn_dash_actor.org_id) THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
  PERFORM set_config('cairn.org', org_id::text, true);
END $$;
--> statement-breakpoint
-- A new org with its owner (no API key yet: keys are made under Settings, API keys).
CREATE FUNCTION cairn_dash_org_create(p_user uuid, p_org uuid, p_name text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO orgs (id, name) VALUES (p_org, p_name);
  INSERT INTO ledger_heads (org_id, seq, hash) VALUES (p_org, 0, repeat('0', 64));
  INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (p_org, 0, 0);
  INSERT INTO memberships (user_id, org_id, role) VALUES (p_user, p_org, 'owner');
  RETURN jsonb_build_object('id', p_org, 'name', p_name);
END $$;
--> statement-breakpoint
-- Sign-up: the account and its first org, in one statement.
CREATE FUNCTION cairn_dash_signup(p_user uuid, p_email text, p_hash text, p_org uuid, p_org_name text)
RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  BEGIN
    INSERT INTO users (id, email, password_hash) VALUES (p_user, p_email, p_hash);
  EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'email: an account with this email exists; sign in instead' USING ERRCODE = 'CN409';
  END;
  RETURN jsonb_build_object('user_id', p_user, 'org', cairn_dash_org_create(p_user, p_org, p_org_name));
END $$;
--> statement-breakpoint
-- The stored password hash of an account, for the service to check; NULL when there is none.
CREATE FUNCTION cairn_dash_account(p_email text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  RETURN (SELECT jsonb_build_object('user_id', id, 'password_hash', password_hash) FROM users WHERE email = p_email);
END $$;
--> statement-breakpoint
-- A new session showing the user's first org; the user's expired sessions are dropped.
CREATE FUNCTION cairn_dash_session_start(p_token_hash text, p_user uuid, p_csrf text, p_seconds int)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  DELETE FROM sessions WHERE user_id = p_user AND expires_at <= now();
  INSERT INTO sessions (token_hash, user_id, org_id, csrf, expires_at)
    VALUES (p_token_hash, p_user,
      (SELECT m.org_id FROM memberships m WHERE m.user_id = p_user ORDER BY m.created_at, m.org_id LIMIT 1),
      p_csrf, now() + make_interval(secs => p_seconds));
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_session_end(p_token_hash text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  DELETE FROM sessions WHERE token_hash = p_token_hash;
END $$;
--> statement-breakpoint
-- Shows another of the user's orgs (403 for an org that is not theirs).
CREATE FUNCTION cairn_dash_switch(p_token_hash text, p_org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  UPDATE sessions s SET org_id = p_org WHERE s.token_hash = p_token_hash AND s.expires_at > now()
    AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = s.user_id AND m.org_id = p_org);
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
END $$;
--> statement-breakpoint
-- Settings, API keys: list, create (attributed to the user's email), revoke (keys of the org only).
CREATE FUNCTION cairn_dash_keys(p_token_hash text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN cairn_admin_list_keys((cairn_dash_actor(p_token_hash)).org_id);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_key_create(p_token_hash text, p_key jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN cairn_admin_create_key(a.org_id, p_key, a.email);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_key_revoke(p_token_hash text, p_key uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM api_keys WHERE id = p_key AND org_id = a.org_id) THEN
    RAISE EXCEPTION 'key % not found', p_key USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_admin_revoke_key(p_key, a.email);
END $$;
--> statement-breakpoint
-- Memory, in the dashboard: the recall ranking for a reader of the session's org who is no agent
-- (''), so no agent's private entries are shown.
CREATE FUNCTION cairn_dash_recall(p_token_hash text, p_project text, p_args jsonb) RETURNS json
LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN cairn_recall_for(a.org_id, '', p_project, p_args);
END $$;
--> statement-breakpoint
-- The org's ledger, newest first, by agent and operation when given, before a sequence number.
CREATE FUNCTION cairn_dash_ledger(p_token_hash text, p_agent text, p_op text, p_before bigint, p_limit int)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb)
    FROM (SELECT * FROM ledger l
          WHERE l.org_id = a.org_id AND (p_agent IS NULL OR l.agent = p_agent) AND (p_op IS NULL OR l.op = p_op)
            AND (p_before IS NULL OR l.seq < p_before)
          ORDER BY l.seq DESC LIMIT p_limit) l);
END $$;
--> statement-breakpoint
-- forget for a reader of an org: cairn_forget authenticates a key and forgets as its agent; the
-- dashboard forgets as its user. p_reader decides which private entries may go (an agent's own),
-- p_actor is who the ledger names. The body is cairn_forget's of 0001 with the two apart.
CREATE FUNCTION cairn_forget_for(p_org uuid, p_reader text, p_actor text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := p_org;
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
      AND (scope <> 'agent' OR agent = p_reader)
      RETURNING id, project, content_sha256 LOOP
    v_done := v_done || r.id;
    PERFORM cairn_ledger_append(v_org, p_actor, 'forget', r.id, r.project, r.content_sha256, v_reason);
  END LOOP;
  UPDATE entries SET superseded_by = NULL, updated_at = now()
    WHERE org_id = v_org AND superseded_by = ANY(v_done);
  FOR r IN DELETE FROM artifacts WHERE org_id = v_org AND id = ANY(v_ids)
      AND (scope <> 'agent' OR agent = p_reader)
      RETURNING id, project, sha256, blob_key LOOP
    v_done := v_done || r.id;
    v_blobs := v_blobs || r.blob_key;
    PERFORM cairn_ledger_append(v_org, p_actor, 'forget', r.id, r.project, r.sha256, v_reason);
  END LOOP;
  DELETE FROM object_ids WHERE id = ANY(v_done);
  RETURN jsonb_build_object(
    'forgotten', to_jsonb(v_done),
    'not_found', to_jsonb(ARRAY(SELECT i FROM unnest(v_ids) i WHERE i <> ALL(v_done))),
    'blob_keys', to_jsonb(v_blobs));
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cairn_forget(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN cairn_forget_for(cairn_auth(p_key_hash), p_agent, p_agent, p_args);
END $$;
--> statement-breakpoint
-- An entry's page: the entry (never an agent's private one), its versions through supersession,
-- oldest first, and its ledger events; NULL when there is no such entry to show.
CREATE FUNCTION cairn_dash_entry(p_token_hash text, p_id uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
  v_e entries;
BEGIN
  SELECT * INTO v_e FROM entries WHERE org_id = a.org_id AND id = p_id AND scope <> 'agent';
  IF v_e.id IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'entry', cairn_entry_json(v_e),
    'versions', (
      WITH RECURSIVE older AS (
        SELECT e.*, 0 AS step FROM entries e WHERE e.org_id = a.org_id AND e.id = p_id
        UNION ALL
        SELECT e.*, o.step - 1 FROM older o JOIN entries e ON e.org_id = a.org_id AND e.id = o.supersedes
        WHERE o.step > -100
      ), newer AS (
        SELECT e.*, 0 AS step FROM entries e WHERE e.org_id = a.org_id AND e.id = p_id
        UNION ALL
        SELECT e.*, n.step + 1 FROM newer n JOIN entries e ON e.org_id = a.org_id AND e.id = n.superseded_by
        WHERE n.step < 100
      )
      SELECT coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'created_at', v.created_at, 'agent', v.agent,
        'version', v.version, 'current', v.id = p_id) ORDER BY v.step), '[]'::jsonb)
      FROM (SELECT * FROM older UNION SELECT * FROM newer) v WHERE v.scope <> 'agent'),
    'events', (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq), '[]'::jsonb)
      FROM ledger l WHERE l.org_id = a.org_id AND l.entry_id = p_id));
END $$;
--> statement-breakpoint
-- Forget from the dashboard: one shown entry, with the reason the ledger keeps.
CREATE FUNCTION cairn_dash_forget(p_token_hash text, p_id uuid, p_reason text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM entries WHERE org_id = a.org_id AND id = p_id AND scope <> 'agent') THEN
    RAISE EXCEPTION 'no such entry in this org' USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_forget_for(a.org_id, '', a.email,
    jsonb_build_object('ids', jsonb_build_array(p_id), 'reason', p_reason));
END $$;
--> statement-breakpoint
-- Artifacts, in the dashboard: the org's shared artifacts, newest first (a page of p_limit).
CREATE FUNCTION cairn_dash_artifacts(p_token_hash text, p_limit int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(cairn_artifact_json(x) ORDER BY x.created_at DESC, x.id DESC), '[]'::jsonb)
    FROM (SELECT * FROM artifacts WHERE org_id = a.org_id AND scope <> 'agent'
          ORDER BY created_at DESC, id DESC LIMIT p_limit) x);
END $$;
--> statement-breakpoint
-- One shared artifact of the session's org with the key of its bytes; NULL when there is none.
CREATE FUNCTION cairn_dash_artifact(p_token_hash text, p_id uuid) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT jsonb_build_object('artifact', cairn_artifact_json(x), 'blob_key', x.blob_key)
    FROM artifacts x WHERE x.org_id = a.org_id AND x.id = p_id AND x.scope <> 'agent');
END $$;
--> statement-breakpoint
-- The operator's way in for a self-hosted install (`cairn user create`): an account that owns an
-- existing org. An email that has an account keeps its password and joins the org.
CREATE FUNCTION cairn_admin_add_user(p_org uuid, p_user uuid, p_email text, p_hash text)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_user uuid;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO users (id, email, password_hash) VALUES (p_user, p_email, p_hash) ON CONFLICT (email) DO NOTHING;
  SELECT id INTO v_user FROM users WHERE email = p_email;
  INSERT INTO memberships (user_id, org_id, role) VALUES (v_user, p_org, 'owner') ON CONFLICT DO NOTHING;
  RETURN jsonb_build_object('user_id', v_user, 'email', p_email, 'org_id', p_org, 'created', v_user = p_user);
END $$;
