-- Settings, API keys: the session org's keys (never their hashes).
CREATE OR REPLACE FUNCTION public.cairn_dash_keys(p_token_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN cairn_admin_list_keys((cairn_dash_actor(p_token_hash)).org_id);
END $function$;
