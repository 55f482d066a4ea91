-- Raises the tool-call quota's refusal (CN429) with when the month's count resets.
CREATE OR REPLACE FUNCTION public.cairn_refuse_calls(p_plan service_plans, p_used bigint, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_reset timestamptz := ((cairn_month_start(p_now) + interval '1 month')::timestamp AT TIME ZONE 'UTC');
BEGIN
  PERFORM cairn_refuse('tool_calls_per_month', p_plan.id, p_plan.tool_calls_per_month, p_used,
    extract(epoch FROM v_reset - p_now), v_reset, extract(epoch FROM v_reset - cairn_month_start(p_now)::timestamp AT TIME ZONE 'UTC')::int,
    format('Tool call quota reached: this org has made %s of the %s tool calls its plan "%s" allows this month; the quota resets at %s. Change the plan or wait.',
      p_used, p_plan.tool_calls_per_month, p_plan.id, to_char(v_reset AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')));
END $function$;
