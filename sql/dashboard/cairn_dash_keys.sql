-- Settings, API keys: list, create (attributed to the user's email), revoke (keys of the org only).
CREATE OR REPLACE FUNCTION public.cairn_dash_keys(p_token_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN cairn_admin_list_keys((cairn_dash_actor(p_token_hash)).org_id);
END $function$;
