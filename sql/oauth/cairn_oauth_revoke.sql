-- RFC 7009: an access token goes alone; a refresh token takes its grant with it. Unknown: nothing.
CREATE OR REPLACE FUNCTION public.cairn_oauth_revoke(p_access_hash text, p_refresh_hash text, p_client_id text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  DELETE FROM oauth_tokens t USING oauth_grants g
    WHERE t.hash = p_access_hash AND t.kind = 'access' AND g.id = t.grant_id AND g.client_id = p_client_id;
  UPDATE oauth_grants g SET revoked_at = now() FROM oauth_tokens t
    WHERE t.hash = p_refresh_hash AND t.kind = 'refresh' AND g.id = t.grant_id AND g.client_id = p_client_id
      AND g.revoked_at IS NULL;
END $function$;
