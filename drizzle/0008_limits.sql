CREATE TABLE "auth_failures" (
	"bucket" text PRIMARY KEY NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "key_rates" (
	"key_id" uuid PRIMARY KEY NOT NULL,
	"org_id" uuid NOT NULL,
	"tat" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "org_usage" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"month" date NOT NULL,
	"month_calls" bigint NOT NULL,
	"stored_bytes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_plans" (
	"id" text PRIMARY KEY NOT NULL,
	"requests_per_minute" integer,
	"tool_calls_per_month" bigint,
	"stored_bytes" bigint,
	"artifact_bytes" bigint,
	"entry_chars" integer,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "usage_days" (
	"org_id" uuid NOT NULL,
	"day" date NOT NULL,
	"calls" bigint NOT NULL,
	"stored_bytes" bigint NOT NULL,
	CONSTRAINT "usage_days_org_id_day_pk" PRIMARY KEY("org_id","day")
);
--> statement-breakpoint
ALTER TABLE "orgs" ADD COLUMN "plan_id" text;--> statement-breakpoint
ALTER TABLE "key_rates" ADD CONSTRAINT "key_rates_key_id_api_keys_id_fk" FOREIGN KEY ("key_id") REFERENCES "public"."api_keys"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "org_usage" ADD CONSTRAINT "org_usage_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_days" ADD CONSTRAINT "usage_days_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_plans_default_idx" ON "service_plans" USING btree ("is_default") WHERE "service_plans"."is_default";--> statement-breakpoint
ALTER TABLE "orgs" ADD CONSTRAINT "orgs_plan_id_service_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."service_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Plans, quotas and rate limits (docs/design.md, "Plans and limits").
--
-- A tool call is metered inside its one statement: `SELECT cairn_meter(op, cairn_<op>(...))`.
-- cairn_authenticate refuses early, without locks, a call that is plainly over a limit; cairn_meter
-- then counts exactly at the end of the statement, under the row locks of the org's usage row and
-- the key's rate row, so concurrent calls over a quota are refused one by one, and a refusal rolls
-- the whole call back: nothing written, no ledger event. Stored bytes are counted by triggers on
-- entries and artifacts, whichever path writes them (tools, dashboard, operator).
--
-- CN429 carries a JSON DETAIL: {limit, plan, value, used, retry_after, resets_at, window}.
-- CN413 is an entry or artifact over its plan's size.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON service_plans, auth_failures TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE ON org_usage, usage_days, key_rates TO cairn_app';
    EXECUTE 'GRANT UPDATE (plan_id) ON orgs TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE service_plans ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE service_plans FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY service_plans_read ON service_plans FOR SELECT USING (true);
--> statement-breakpoint
CREATE POLICY service_plans_operator ON service_plans USING (cairn_operator()) WITH CHECK (cairn_operator());
--> statement-breakpoint
ALTER TABLE org_usage ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE org_usage FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY org_usage_isolation ON org_usage USING (org_id = cairn_org() OR cairn_operator());
--> statement-breakpoint
ALTER TABLE usage_days ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE usage_days FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY usage_days_isolation ON usage_days USING (org_id = cairn_org() OR cairn_operator());
--> statement-breakpoint
ALTER TABLE key_rates ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE key_rates FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY key_rates_isolation ON key_rates USING (org_id = cairn_org());
--> statement-breakpoint
-- The limits in force for an org: its plan, else the default plan; all nulls when there is none.
CREATE FUNCTION cairn_limits(p_org uuid) RETURNS service_plans LANGUAGE plpgsql STABLE AS $$
DECLARE
  v_p service_plans;
BEGIN
  SELECT p.* INTO v_p FROM orgs o JOIN service_plans p ON p.id = o.plan_id WHERE o.id = p_org;
  IF v_p.id IS NULL THEN
    SELECT p.* INTO v_p FROM service_plans p WHERE p.is_default;
  END IF;
  RETURN v_p;
END $$;
--> statement-breakpoint
-- Refuses the statement with 429 and what the client needs to know: which limit, and when to retry.
CREATE FUNCTION cairn_refuse(p_limit text, p_plan text, p_value bigint, p_used bigint, p_retry numeric,
  p_resets_at timestamptz, p_window int, p_message text) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '%', p_message USING ERRCODE = 'CN429', DETAIL = json_build_object('limit', p_limit,
    'plan', p_plan, 'value', p_value, 'used', p_used, 'retry_after', greatest(1, ceil(p_retry))::int,
    'resets_at', to_char(p_resets_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'window', p_window)::text;
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_month_start(p_at timestamptz) RETURNS date LANGUAGE sql IMMUTABLE AS $$
  SELECT date_trunc('month', p_at AT TIME ZONE 'UTC')::date
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_refuse_calls(p_plan service_plans, p_used bigint, p_now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_reset timestamptz := ((cairn_month_start(p_now) + interval '1 month')::timestamp AT TIME ZONE 'UTC');
BEGIN
  PERFORM cairn_refuse('tool_calls_per_month', p_plan.id, p_plan.tool_calls_per_month, p_used,
    extract(epoch FROM v_reset - p_now), v_reset, extract(epoch FROM v_reset - cairn_month_start(p_now)::timestamp AT TIME ZONE 'UTC')::int,
    format('Tool call quota reached: this org has made %s of the %s tool calls its plan "%s" allows this month; the quota resets at %s. Change the plan or wait.',
      p_used, p_plan.tool_calls_per_month, p_plan.id, to_char(v_reset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_refuse_rate(p_plan service_plans, p_tat timestamptz, p_now timestamptz) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_period numeric := 60.0 / p_plan.requests_per_minute;
  v_retry numeric := extract(epoch FROM p_tat - p_now) - (60 - v_period);
BEGIN
  PERFORM cairn_refuse('requests_per_minute', p_plan.id, p_plan.requests_per_minute, p_plan.requests_per_minute,
    v_retry, p_tat, 60,
    format('Rate limit reached: this API key may make %s requests per minute (plan "%s"); retry in %s s.',
      p_plan.requests_per_minute, p_plan.id, greatest(1, ceil(v_retry))));
END $$;
--> statement-breakpoint
-- The credential a hash names: an API key, its id (the rate limit's key) and org, its last use
-- marked (once a minute). p_org is NULL when there is none. (0010 adds OAuth access tokens.)
CREATE FUNCTION cairn_credential(p_key_hash text, OUT p_key uuid, OUT p_org uuid) LANGUAGE plpgsql AS $$
DECLARE
  v_last timestamptz;
BEGIN
  PERFORM set_config('cairn.key_hash', coalesce(p_key_hash, ''), true);
  SELECT k.id, k.org_id, k.last_used_at INTO p_key, p_org, v_last
    FROM api_keys k WHERE k.hash = p_key_hash AND k.revoked_at IS NULL;
  IF p_key IS NOT NULL AND (v_last IS NULL OR v_last < now() - interval '1 minute') THEN
    UPDATE api_keys SET last_used_at = now() WHERE id = p_key;
  END IF;
  PERFORM set_config('cairn.key_hash', '', true);
END $$;
--> statement-breakpoint
-- Authenticates a credential (as cairn_auth did a key) and refuses early a request plainly over a
-- limit: a read without locks; the exact count is cairn_meter's. p_tool: a tool call (the monthly
-- quota applies) rather than a request without one (initialize, tools/list, GET).
CREATE FUNCTION cairn_authenticate(p_key_hash text, p_tool boolean) RETURNS uuid LANGUAGE plpgsql AS $$
DECLARE
  v_key uuid;
  v_org uuid;
  v_plan service_plans;
  v_now timestamptz := clock_timestamp();
  v_tat timestamptz;
  v_u org_usage;
BEGIN
  SELECT c.p_key, c.p_org INTO v_key, v_org FROM cairn_credential(p_key_hash) c;
  IF v_org IS NULL THEN
    RAISE EXCEPTION 'invalid or revoked API key' USING ERRCODE = 'CN401';
  END IF;
  PERFORM set_config('cairn.org', v_org::text, true);
  PERFORM set_config('cairn.key', v_key::text, true);
  -- The rest of the statement runs as cairn_app, bound by row-level security, whatever role
  -- the driver connected as (Neon's HTTP driver cannot choose one per connection).
  IF current_user <> 'cairn_app' AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app')
     AND pg_has_role(current_user, 'cairn_app', 'MEMBER') THEN
    PERFORM set_config('role', 'cairn_app', true);
  END IF;
  v_plan := cairn_limits(v_org);
  IF v_plan.requests_per_minute IS NOT NULL THEN
    SELECT tat INTO v_tat FROM key_rates WHERE key_id = v_key;
    IF v_tat - v_now > make_interval(secs => 60 - 60.0 / v_plan.requests_per_minute) THEN
      PERFORM cairn_refuse_rate(v_plan, v_tat, v_now);
    END IF;
  END IF;
  IF p_tool AND v_plan.tool_calls_per_month IS NOT NULL THEN
    SELECT * INTO v_u FROM org_usage WHERE org_id = v_org;
    IF v_u.month = cairn_month_start(v_now) AND v_u.month_calls >= v_plan.tool_calls_per_month THEN
      PERFORM cairn_refuse_calls(v_plan, v_u.month_calls, v_now);
    END IF;
  END IF;
  RETURN v_org;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cairn_auth(p_key_hash text) RETURNS uuid LANGUAGE plpgsql AS $$
BEGIN
  RETURN cairn_authenticate(p_key_hash, true);
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cairn_whoami(p_key_hash text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  RETURN jsonb_build_object('org_id', cairn_authenticate(p_key_hash, false));
END $$;
--> statement-breakpoint
-- Counts a request exactly, at the end of its statement: the key's rate (when its plan has one),
-- and for a tool call (p_op other than 'request') the org's monthly calls and today's usage. Locks
-- in one order everywhere (org_usage, then key_rates). A read's only writes are these counters, so
-- its commit does not wait for the disk: a crash may forget a few counted reads, never a write.
CREATE FUNCTION cairn_meter(p_op text, p_result anyelement) RETURNS anyelement LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := cairn_org();
  v_key uuid := nullif(current_setting('cairn.key', true), '')::uuid;
  v_plan service_plans := cairn_limits(v_org);
  v_now timestamptz := clock_timestamp();
  v_month date := cairn_month_start(v_now);
  v_period interval;
  v_calls bigint;
  v_bytes bigint;
  v_tat timestamptz;
BEGIN
  IF p_op <> 'request' THEN
    UPDATE org_usage u SET month = v_month,
        month_calls = CASE WHEN u.month = v_month THEN u.month_calls + 1 ELSE 1 END
      WHERE u.org_id = v_org AND (v_plan.tool_calls_per_month IS NULL
        OR (CASE WHEN u.month = v_month THEN u.month_calls ELSE 0 END) < v_plan.tool_calls_per_month)
      RETURNING u.month_calls, u.stored_bytes INTO v_calls, v_bytes;
    IF NOT FOUND THEN
      PERFORM cairn_refuse_calls(v_plan, v_plan.tool_calls_per_month, v_now);
    END IF;
    INSERT INTO usage_days AS d (org_id, day, calls, stored_bytes)
      VALUES (v_org, (v_now AT TIME ZONE 'UTC')::date, 1, v_bytes)
      ON CONFLICT (org_id, day) DO UPDATE SET calls = d.calls + 1, stored_bytes = excluded.stored_bytes;
  END IF;
  IF v_plan.requests_per_minute IS NOT NULL THEN
    v_period := make_interval(secs => 60.0 / v_plan.requests_per_minute);
    INSERT INTO key_rates AS r (key_id, org_id, tat) VALUES (v_key, v_org, v_now + v_period)
      ON CONFLICT (key_id) DO UPDATE SET tat = greatest(r.tat, v_now) + v_period
        WHERE greatest(r.tat, v_now) + v_period - v_now <= interval '60 seconds'
      RETURNING r.tat INTO v_tat;
    IF NOT FOUND THEN
      SELECT tat INTO v_tat FROM key_rates WHERE key_id = v_key;
      PERFORM cairn_refuse_rate(v_plan, v_tat, v_now);
    END IF;
  END IF;
  IF p_op IN ('recall', 'space', 'artifact_get', 'request') THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN p_result;
END $$;
--> statement-breakpoint
-- Every org has its usage row from its first statement on.
CREATE FUNCTION cairn_org_usage_row() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO org_usage (org_id, month, month_calls, stored_bytes)
    VALUES (NEW.id, cairn_month_start(now()), 0, 0);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER orgs_usage_row AFTER INSERT ON orgs FOR EACH ROW EXECUTE FUNCTION cairn_org_usage_row();
--> statement-breakpoint
-- Adds p_delta bytes to what an org holds, refusing growth past its plan's storage, and refuses an
-- entry or artifact larger than its plan allows (p_chars: the longest new entry content;
-- p_size: the largest new artifact).
CREATE FUNCTION cairn_store_bytes(p_org uuid, p_delta bigint, p_chars int, p_size bigint) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_plan service_plans := cairn_limits(p_org);
  v_bytes bigint;
BEGIN
  IF p_chars > v_plan.entry_chars THEN
    RAISE EXCEPTION 'content: % characters is more than the % characters an entry may hold on plan "%"; shorten it or split it',
      p_chars, v_plan.entry_chars, v_plan.id USING ERRCODE = 'CN413';
  END IF;
  IF p_size > v_plan.artifact_bytes THEN
    RAISE EXCEPTION 'content: the artifact is % bytes; plan "%" allows at most % bytes per artifact',
      p_size, v_plan.id, v_plan.artifact_bytes USING ERRCODE = 'CN413';
  END IF;
  IF p_delta = 0 THEN
    RETURN;
  END IF;
  UPDATE org_usage SET stored_bytes = stored_bytes + p_delta WHERE org_id = p_org
    RETURNING stored_bytes INTO v_bytes;
  IF p_delta > 0 AND v_bytes > v_plan.stored_bytes THEN
    PERFORM cairn_refuse('stored_bytes', v_plan.id, v_plan.stored_bytes, v_bytes - p_delta, 3600, NULL, NULL,
      format('Storage quota reached: this write needs %s bytes and the org holds %s of the %s bytes its plan "%s" allows. Forget entries or artifacts you no longer need, or change the plan.',
        p_delta, v_bytes - p_delta, v_plan.stored_bytes, v_plan.id));
  END IF;
END $$;
--> statement-breakpoint
-- Statement triggers: one usage update per statement and org, whatever number of rows it touched.
CREATE FUNCTION cairn_entries_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT org_id, sum(octet_length(content)) AS delta, max(char_length(content)) AS chars
        FROM new_rows GROUP BY org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, r.chars, NULL);
    END LOOP;
  ELSIF TG_OP = 'UPDATE' THEN
    FOR r IN SELECT n.org_id, sum(octet_length(n.content) - octet_length(o.content)) AS delta,
          max(char_length(n.content)) FILTER (WHERE n.content <> o.content) AS chars
        FROM new_rows n JOIN old_rows o ON o.id = n.id GROUP BY n.org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, r.chars, NULL);
    END LOOP;
  ELSE
    FOR r IN SELECT org_id, -sum(octet_length(content)) AS delta FROM old_rows GROUP BY org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, NULL);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER entries_bytes_insert AFTER INSERT ON entries REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_entries_bytes();
--> statement-breakpoint
CREATE TRIGGER entries_bytes_update AFTER UPDATE ON entries REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_entries_bytes();
--> statement-breakpoint
CREATE TRIGGER entries_bytes_delete AFTER DELETE ON entries REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_entries_bytes();
--> statement-breakpoint
CREATE FUNCTION cairn_artifacts_bytes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  r record;
BEGIN
  IF TG_OP = 'INSERT' THEN
    FOR r IN SELECT org_id, sum(size)::bigint AS delta, max(size) AS largest FROM new_rows GROUP BY org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, r.largest);
    END LOOP;
  ELSE
    FOR r IN SELECT org_id, -sum(size)::bigint AS delta FROM old_rows GROUP BY org_id LOOP
      PERFORM cairn_store_bytes(r.org_id, r.delta, NULL, NULL);
    END LOOP;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER artifacts_bytes_insert AFTER INSERT ON artifacts REFERENCING NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_artifacts_bytes();
--> statement-breakpoint
CREATE TRIGGER artifacts_bytes_delete AFTER DELETE ON artifacts REFERENCING OLD TABLE AS old_rows
  FOR EACH STATEMENT EXECUTE FUNCTION cairn_artifacts_bytes();
--> statement-breakpoint
-- Usage rows for the orgs that exist already, with the bytes they hold.
DO $$
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  INSERT INTO org_usage (org_id, month, month_calls, stored_bytes)
    SELECT o.id, cairn_month_start(now()), 0,
      (SELECT coalesce(sum(octet_length(e.content)), 0) FROM entries e WHERE e.org_id = o.id)
      + (SELECT coalesce(sum(a.size), 0) FROM artifacts a WHERE a.org_id = o.id)
    FROM orgs o;
  PERFORM set_config('cairn.operator', '', true);
END $$;
--> statement-breakpoint
-- An org's plan, its use this month and, when p_days > 0, its use per day over the last p_days days
-- (UTC; days without a call are absent). For `space`, the dashboard and the operator.
CREATE FUNCTION cairn_usage_for(p_org uuid, p_days int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_plan service_plans := cairn_limits(p_org);
  v_u org_usage;
  v_now timestamptz := clock_timestamp();
  v_days jsonb;
BEGIN
  SELECT * INTO v_u FROM org_usage WHERE org_id = p_org;
  IF p_days > 0 THEN
    SELECT coalesce(jsonb_agg(jsonb_build_object('day', d.day, 'calls', d.calls, 'stored_bytes', d.stored_bytes)
        ORDER BY d.day DESC), '[]'::jsonb) INTO v_days
      FROM usage_days d WHERE d.org_id = p_org AND d.day > (v_now AT TIME ZONE 'UTC')::date - p_days;
  END IF;
  RETURN jsonb_build_object(
    'plan', v_plan.id,
    'requests_per_minute', v_plan.requests_per_minute,
    'tool_calls_per_month', v_plan.tool_calls_per_month,
    'tool_calls_this_month', CASE WHEN v_u.month = cairn_month_start(v_now) THEN v_u.month_calls ELSE 0 END,
    'resets_at', to_char((cairn_month_start(v_now) + interval '1 month')::timestamp, 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'stored_bytes_limit', v_plan.stored_bytes,
    'stored_bytes', coalesce(v_u.stored_bytes, 0),
    'artifact_bytes', v_plan.artifact_bytes,
    'entry_chars', v_plan.entry_chars)
    || CASE WHEN p_days > 0 THEN jsonb_build_object('days', v_days) ELSE '{}'::jsonb END;
END $$;
--> statement-breakpoint
-- space, as in 0001, with the stored bytes read from the org's usage row (not summed over every
-- entry) and the plan's quota and its use.
CREATE OR REPLACE FUNCTION cairn_space(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_usage(p_token_hash text, p_days int) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN cairn_usage_for(a.org_id, p_days);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_plan_json(p service_plans) RETURNS jsonb LANGUAGE sql STABLE AS $$
  SELECT jsonb_build_object('id', p.id, 'requests_per_minute', p.requests_per_minute,
    'tool_calls_per_month', p.tool_calls_per_month, 'stored_bytes', p.stored_bytes,
    'artifact_bytes', p.artifact_bytes, 'entry_chars', p.entry_chars, 'is_default', p.is_default,
    'orgs', (SELECT count(*) FROM orgs o WHERE o.plan_id = p.id), 'created_at', p.created_at)
$$;
--> statement-breakpoint
-- Operator: creates or replaces a plan (p_plan: {id, requests_per_minute, tool_calls_per_month,
-- stored_bytes, artifact_bytes, entry_chars, is_default}; absent limits are none). A new default
-- plan takes the mark from the old one.
CREATE FUNCTION cairn_admin_plan_put(p_plan jsonb) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_p service_plans;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  IF coalesce((p_plan->>'is_default')::boolean, false) THEN
    UPDATE service_plans SET is_default = false WHERE is_default AND id <> p_plan->>'id';
  END IF;
  INSERT INTO service_plans (id, requests_per_minute, tool_calls_per_month, stored_bytes, artifact_bytes,
      entry_chars, is_default)
    VALUES (p_plan->>'id', (p_plan->>'requests_per_minute')::int, (p_plan->>'tool_calls_per_month')::bigint,
      (p_plan->>'stored_bytes')::bigint, (p_plan->>'artifact_bytes')::bigint, (p_plan->>'entry_chars')::int,
      coalesce((p_plan->>'is_default')::boolean, false))
    ON CONFLICT (id) DO UPDATE SET requests_per_minute = excluded.requests_per_minute,
      tool_calls_per_month = excluded.tool_calls_per_month, stored_bytes = excluded.stored_bytes,
      artifact_bytes = excluded.artifact_bytes, entry_chars = excluded.entry_chars,
      is_default = excluded.is_default
    RETURNING * INTO v_p;
  RETURN cairn_plan_json(v_p);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_admin_plans() RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  RETURN (SELECT coalesce(jsonb_agg(cairn_plan_json(p) ORDER BY p.id), '[]'::jsonb) FROM service_plans p);
END $$;
--> statement-breakpoint
-- Operator: puts an org on a plan (NULL: back on the default plan); returns its usage.
CREATE FUNCTION cairn_admin_org_plan(p_org uuid, p_plan text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF p_plan IS NOT NULL AND NOT EXISTS (SELECT 1 FROM service_plans WHERE id = p_plan) THEN
    RAISE EXCEPTION 'plan: there is no plan "%"; create it first', p_plan USING ERRCODE = 'CN404';
  END IF;
  UPDATE orgs SET plan_id = p_plan WHERE id = p_org;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_usage_for(p_org, 0);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_admin_usage(p_org uuid, p_days int) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_usage_for(p_org, p_days);
END $$;
--> statement-breakpoint
-- Records a failed authentication for a bucket (door and client address): p_limit failures in a
-- row are allowed, then one more per p_window / p_limit seconds (GCRA). Says whether this one was
-- over the limit (refused; it does not lengthen the wait) and whether the next will be (blocked),
-- and in how many seconds one will be allowed. Holds no org data.
CREATE FUNCTION cairn_auth_failure(p_bucket text, p_limit int, p_window int) RETURNS jsonb
LANGUAGE plpgsql AS $$
DECLARE
  v_now timestamptz := clock_timestamp();
  v_period interval := make_interval(secs => p_window::numeric / p_limit);
  v_tau interval := make_interval(secs => p_window) - v_period;
  v_tat timestamptz;
  v_refused boolean;
BEGIN
  IF random() < 0.01 THEN
    DELETE FROM auth_failures WHERE tat < v_now;
  END IF;
  INSERT INTO auth_failures AS f (bucket, tat) VALUES (p_bucket, v_now + v_period)
    ON CONFLICT (bucket) DO UPDATE SET tat = greatest(f.tat, v_now) + v_period
      WHERE greatest(f.tat, v_now) - v_now <= v_tau
    RETURNING f.tat INTO v_tat;
  v_refused := NOT FOUND;
  IF v_refused THEN
    SELECT tat INTO v_tat FROM auth_failures WHERE bucket = p_bucket;
  END IF;
  RETURN jsonb_build_object('refused', v_refused, 'blocked', v_tat - v_now > v_tau,
    'retry_after', greatest(1, ceil(extract(epoch FROM v_tat - v_now - v_tau)))::int);
END $$;
