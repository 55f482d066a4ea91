-- Settings, connected apps: revokes one of the session org's OAuth grants and deletes its tokens,
-- so the client's next request is refused.
CREATE OR REPLACE FUNCTION public.cairn_dash_grant_revoke(p_token_hash text, p_grant uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_grants SET revoked_at = coalesce(revoked_at, now()) WHERE id = p_grant AND org_id = a.org_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'no such connected app in this org' USING ERRCODE = 'CN404';
  END IF;
  DELETE FROM oauth_tokens WHERE grant_id = p_grant;
END $function$;
