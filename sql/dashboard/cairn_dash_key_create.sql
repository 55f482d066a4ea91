-- Settings, API keys: a new key for the session's org, attributed to the user's email. The
-- membership row is held (FOR SHARE) until the key commits, so a removal of the member either runs
-- after it — and revokes this key with the others — or before it, and then no key is made: a key
-- committed while the removal ran can never outlive it (cairn_dash_member_remove locks the org's
-- memberships FOR UPDATE first).
CREATE OR REPLACE FUNCTION public.cairn_dash_key_create(p_token_hash text, p_key jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  PERFORM 1 FROM memberships m WHERE m.org_id = a.org_id AND m.user_id = a.user_id FOR SHARE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
  RETURN cairn_admin_create_key(a.org_id, p_key, a.email);
END $function$;
