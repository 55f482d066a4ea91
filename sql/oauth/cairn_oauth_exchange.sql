-- grant_type=authorization_code: consumes the code once (a second use revokes its grant), checks
-- client, redirect URI, PKCE (p_challenge: S256 of the verifier) and resource, issues tokens.
CREATE OR REPLACE FUNCTION public.cairn_oauth_exchange(p_code_hash text, p_client_id text, p_redirect_uri text, p_challenge text, p_resource text, p_access_hash text, p_refresh_hash text, p_access_seconds integer, p_refresh_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_c oauth_codes;
  v_g oauth_grants;
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_codes SET used_at = now() WHERE hash = p_code_hash AND used_at IS NULL RETURNING * INTO v_c;
  IF v_c.hash IS NULL THEN
    SELECT * INTO v_c FROM oauth_codes WHERE hash = p_code_hash;
    IF v_c.hash IS NOT NULL THEN
      UPDATE oauth_grants SET revoked_at = now() WHERE id = v_c.grant_id AND revoked_at IS NULL;
      RETURN cairn_oauth_error('invalid_grant', 'the code was used already; the tokens issued for it are revoked');
    END IF;
    RETURN cairn_oauth_error('invalid_grant', 'unknown code');
  END IF;
  SELECT * INTO v_g FROM oauth_grants WHERE id = v_c.grant_id;
  IF v_c.expires_at <= now() THEN
    RETURN cairn_oauth_error('invalid_grant', 'the code has expired; authorize again');
  ELSIF v_g.client_id <> p_client_id THEN
    RETURN cairn_oauth_error('invalid_grant', 'the code was issued to another client');
  ELSIF v_c.redirect_uri <> p_redirect_uri THEN
    RETURN cairn_oauth_error('invalid_grant', 'redirect_uri differs from the one the code was issued for');
  ELSIF v_c.code_challenge <> p_challenge THEN
    RETURN cairn_oauth_error('invalid_grant', 'code_verifier does not match the code_challenge');
  ELSIF v_g.resource <> p_resource THEN
    RETURN cairn_oauth_error('invalid_target', 'the code was issued for another resource');
  ELSIF v_g.revoked_at IS NOT NULL THEN
    RETURN cairn_oauth_error('invalid_grant', 'the grant was revoked');
  END IF;
  RETURN cairn_oauth_issue(v_g, p_access_hash, p_refresh_hash, p_access_seconds, p_refresh_seconds);
END $function$;
