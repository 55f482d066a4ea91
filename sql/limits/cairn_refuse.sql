-- Refuses the statement with 429 and what the client needs to know: which limit, and when to retry.
CREATE OR REPLACE FUNCTION public.cairn_refuse(p_limit text, p_plan text, p_value bigint, p_used bigint, p_retry numeric, p_resets_at timestamp with time zone, p_window integer, p_message text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  RAISE EXCEPTION '%', p_message USING ERRCODE = 'CN429', DETAIL = json_build_object('limit', p_limit,
    'plan', p_plan, 'value', p_value, 'used', p_used, 'retry_after', greatest(1, ceil(p_retry))::int,
    'resets_at', to_char(p_resets_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
    'window', p_window)::text;
END $function$;
