-- Issues an access and a refresh token for a grant (the access token's hash covers its resource).
CREATE OR REPLACE FUNCTION public.cairn_oauth_issue(p_grant oauth_grants, p_access_hash text, p_refresh_hash text, p_access_seconds integer, p_refresh_seconds integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO oauth_tokens (hash, grant_id, kind, expires_at) VALUES
    (p_access_hash, p_grant.id, 'access', now() + make_interval(secs => p_access_seconds)),
    (p_refresh_hash, p_grant.id, 'refresh', now() + make_interval(secs => p_refresh_seconds));
  -- expired tokens of the grant go as new ones come
  DELETE FROM oauth_tokens WHERE grant_id = p_grant.id AND expires_at < now();
  RETURN jsonb_build_object('scope', p_grant.scope, 'client_id', p_grant.client_id);
END $function$;
