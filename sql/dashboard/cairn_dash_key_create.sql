-- Settings, API keys: a new key for the session's org, attributed to the user's email.
CREATE OR REPLACE FUNCTION public.cairn_dash_key_create(p_token_hash text, p_key jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN cairn_admin_create_key(a.org_id, p_key, a.email);
END $function$;
