-- The credential a hash names: an API key (cairn_key_credential), else an OAuth access token that
-- is unexpired, of a grant not revoked whose user still belongs to the org (its last use marked
-- once a minute). p_key is the rate limit's key (the API key's id or the grant's); p_org is NULL
-- when the hash names nothing.
CREATE OR REPLACE FUNCTION public.cairn_credential(p_key_hash text, OUT p_key uuid, OUT p_org uuid)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_last timestamptz;
  v_agent text;
BEGIN
  SELECT c.p_key, c.p_org INTO p_key, p_org FROM cairn_key_credential(p_key_hash) c;
  IF p_key IS NOT NULL THEN
    RETURN;
  END IF;
  PERFORM set_config('cairn.oauth', 'on', true);
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT g.id, g.org_id, g.last_used_at, g.agent INTO p_key, p_org, v_last, v_agent
    FROM oauth_tokens t JOIN oauth_grants g ON g.id = t.grant_id
    WHERE t.hash = p_key_hash AND t.kind = 'access' AND t.expires_at > now() AND g.revoked_at IS NULL
      AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = g.user_id AND m.org_id = g.org_id);
  -- a grant bound to an agent at consent acts as that agent only (cairn_agent), as a bound key does
  PERFORM set_config('cairn.bound_agent', coalesce(v_agent, ''), true);
  IF p_key IS NOT NULL AND (v_last IS NULL OR v_last < now() - interval '1 minute') THEN
    UPDATE oauth_grants SET last_used_at = now() WHERE id = p_key;
  END IF;
  PERFORM set_config('cairn.oauth', '', true);
  PERFORM set_config('cairn.dashboard', '', true);
END $function$;
