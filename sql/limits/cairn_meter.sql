-- Counts a request exactly, at the end of its statement: the key's rate (when its plan has one),
-- and for a tool call (p_op other than 'request') the org's monthly calls and today's usage — at
-- once under the org's row lock when its plan has a monthly quota (exact under concurrency) or
-- when the statement holds the org's seal (tried first: cairn_org_seal), else as a row of its own
-- left for the seal's next holder. Locks in one order everywhere (org_usage, then
-- key_rates). A read's only writes are these counters (and what its seal folds, atomically), so
-- its commit does not wait for the disk: a crash may forget a few counted reads, never a write.
CREATE OR REPLACE FUNCTION public.cairn_meter(p_op text, p_result anyelement)
 RETURNS anyelement
 LANGUAGE plpgsql
AS $function$
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
  v_sealed boolean;
BEGIN
  -- the org's seal first (cairn_org_seal: what others left pending is folded); while this
  -- statement holds it, its call is counted at once, without a pending row to insert and delete
  IF p_op <> 'request' THEN
    v_sealed := cairn_org_seal(v_org, false);
  END IF;
  IF p_op <> 'request' AND v_plan.tool_calls_per_month IS NULL AND NOT v_sealed THEN
    INSERT INTO usage_pending (org_id, day, calls, bytes) VALUES (v_org, (v_now AT TIME ZONE 'UTC')::date, 1, 0);
  ELSIF p_op <> 'request' THEN
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
    -- the time is read once the key's row is locked (a request that waited for it is judged at
    -- the time it got it, not when it asked)
    INSERT INTO key_rates AS r (key_id, org_id, tat) VALUES (v_key, v_org, clock_timestamp() + v_period)
      ON CONFLICT (key_id) DO UPDATE SET tat = greatest(r.tat, clock_timestamp()) + v_period
        WHERE greatest(r.tat, clock_timestamp()) + v_period - clock_timestamp() <= interval '60 seconds'
      RETURNING r.tat INTO v_tat;
    IF NOT FOUND THEN
      SELECT tat INTO v_tat FROM key_rates WHERE key_id = v_key;
      PERFORM cairn_refuse_rate(v_plan, v_tat, clock_timestamp());
    END IF;
  END IF;
  IF p_op IN ('recall', 'space', 'artifact_get', 'request') THEN
    PERFORM set_config('synchronous_commit', 'off', true);
  END IF;
  RETURN p_result;
END $function$;
