-- The API key a hash names: its id (the rate limit's key) and org, its last use marked once a
-- minute; the agent it is bound to, if any, is left in cairn.bound_agent for cairn_agent. p_org is
-- NULL when there is none. The key row is visible to the statement that presents
-- its hash (policy api_keys_isolation): knowing the hash means holding the key.
CREATE OR REPLACE FUNCTION public.cairn_key_credential(p_key_hash text, OUT p_key uuid, OUT p_org uuid)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_last timestamptz;
  v_agent text;
BEGIN
  PERFORM set_config('cairn.key_hash', coalesce(p_key_hash, ''), true);
  SELECT k.id, k.org_id, k.last_used_at, k.agent INTO p_key, p_org, v_last, v_agent
    FROM api_keys k WHERE k.hash = p_key_hash AND k.revoked_at IS NULL;
  PERFORM set_config('cairn.bound_agent', coalesce(v_agent, ''), true);
  IF p_key IS NOT NULL AND (v_last IS NULL OR v_last < now() - interval '1 minute') THEN
    UPDATE api_keys SET last_used_at = now() WHERE id = p_key;
  END IF;
  PERFORM set_config('cairn.key_hash', '', true);
END $function$;
