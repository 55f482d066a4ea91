-- Settings, API keys: revokes a key of the session's org (a key of another org is not found).
CREATE OR REPLACE FUNCTION public.cairn_dash_key_revoke(p_token_hash text, p_key uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM api_keys WHERE id = p_key AND org_id = a.org_id) THEN
    RAISE EXCEPTION 'key % not found', p_key USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_admin_revoke_key(p_key, a.email);
END $function$;
