-- Raises the rate limit's refusal (CN429): GCRA, p_tat is the key's theoretical arrival time, so
-- Retry-After is exact.
CREATE OR REPLACE FUNCTION public.cairn_refuse_rate(p_plan service_plans, p_tat timestamp with time zone, p_now timestamp with time zone)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_period numeric := 60.0 / p_plan.requests_per_minute;
  v_retry numeric := extract(epoch FROM p_tat - p_now) - (60 - v_period);
BEGIN
  PERFORM cairn_refuse('requests_per_minute', p_plan.id, p_plan.requests_per_minute, p_plan.requests_per_minute,
    v_retry, p_tat, 60,
    format('Rate limit reached: this API key may make %s requests per minute (plan "%s"); retry in %s s.',
      p_plan.requests_per_minute, p_plan.id, greatest(1, ceil(v_retry))));
END $function$;
