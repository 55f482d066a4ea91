-- An org's plan, its use this month and, when p_days > 0, its use per day over the last p_days days
-- (UTC; days without a call are absent). For `space`, the dashboard and the operator.
CREATE OR REPLACE FUNCTION public.cairn_usage_for(p_org uuid, p_days integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_plan service_plans := cairn_limits(p_org);
  v_u org_usage;
  v_now timestamptz := clock_timestamp();
  v_days jsonb;
BEGIN
  -- the calls and bytes of every write answered so far (cairn_org_seal)
  PERFORM cairn_org_seal(p_org, true);
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
END $function$;
