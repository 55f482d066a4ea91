-- Authenticates a credential (cairn_credential), pins the statement to its org, runs the rest of
-- it as cairn_app, and refuses early a request plainly over a limit: a read without locks; the
-- exact count is cairn_meter's. p_tool: a tool call (the monthly quota applies) rather than a
-- request without one (initialize, tools/list, GET).
CREATE OR REPLACE FUNCTION public.cairn_authenticate(p_key_hash text, p_tool boolean)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
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
    -- the time is read after the key's arrival time, which a request that started after this
    -- function may have moved: judged by an earlier clock, Retry-After would be too long
    IF v_tat - clock_timestamp() > make_interval(secs => 60 - 60.0 / v_plan.requests_per_minute) THEN
      PERFORM cairn_refuse_rate(v_plan, v_tat, clock_timestamp());
    END IF;
  END IF;
  IF p_tool AND v_plan.tool_calls_per_month IS NOT NULL THEN
    SELECT * INTO v_u FROM org_usage WHERE org_id = v_org;
    IF v_u.month = cairn_month_start(v_now) AND v_u.month_calls >= v_plan.tool_calls_per_month THEN
      PERFORM cairn_refuse_calls(v_plan, v_u.month_calls, v_now);
    END IF;
  END IF;
  RETURN v_org;
END $function$;
