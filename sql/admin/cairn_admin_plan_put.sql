-- Operator: creates or replaces a plan (p_plan: {id, requests_per_minute, tool_calls_per_month,
-- stored_bytes, artifact_bytes, entry_chars, is_default}; absent limits are none). A new default
-- plan takes the mark from the old one.
CREATE OR REPLACE FUNCTION public.cairn_admin_plan_put(p_plan jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
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
END $function$;
