-- grant_type=refresh_token: rotates; a refresh token presented twice revokes its grant.
CREATE OR REPLACE FUNCTION public.cairn_oauth_refresh(p_refresh_hash text, p_client_id text, p_resource text, p_access_hash text, p_new_refresh_hash text, p_access_seconds integer, p_refresh_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_t oauth_tokens;
  v_g oauth_grants;
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_tokens SET used_at = now()
    WHERE hash = p_refresh_hash AND kind = 'refresh' AND used_at IS NULL RETURNING * INTO v_t;
  IF v_t.hash IS NULL THEN
    SELECT * INTO v_t FROM oauth_tokens WHERE hash = p_refresh_hash AND kind = 'refresh';
    IF v_t.hash IS NOT NULL THEN
      UPDATE oauth_grants SET revoked_at = now() WHERE id = v_t.grant_id AND revoked_at IS NULL;
      RETURN cairn_oauth_error('invalid_grant', 'the refresh token was used already; the grant is revoked, authorize again');
    END IF;
    RETURN cairn_oauth_error('invalid_grant', 'unknown refresh token');
  END IF;
  SELECT * INTO v_g FROM oauth_grants WHERE id = v_t.grant_id;
  IF v_t.expires_at <= now() THEN
    RETURN cairn_oauth_error('invalid_grant', 'the refresh token has expired; authorize again');
  ELSIF v_g.client_id <> p_client_id THEN
    RETURN cairn_oauth_error('invalid_grant', 'the refresh token was issued to another client');
  ELSIF v_g.resource <> p_resource THEN
    RETURN cairn_oauth_error('invalid_target', 'the refresh token was issued for another resource');
  ELSIF v_g.revoked_at IS NOT NULL THEN
    RETURN cairn_oauth_error('invalid_grant', 'the grant was revoked; authorize again');
  END IF;
  RETURN cairn_oauth_issue(v_g, p_access_hash, p_new_refresh_hash, p_access_seconds, p_refresh_seconds);
END $function$;
