-- Usage: the session org's plan and use, with p_days days of history.
CREATE OR REPLACE FUNCTION public.cairn_dash_usage(p_token_hash text, p_days integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN cairn_usage_for(a.org_id, p_days);
END $function$;
