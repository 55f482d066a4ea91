-- The signed-in user lets a client use an org: the standing grant for (user, client, resource,
-- org) or a new one, and a single-use code for it.
CREATE OR REPLACE FUNCTION public.cairn_oauth_approve(p_session_hash text, p_client_id text, p_org uuid, p_resource text, p_scope text, p_code_hash text, p_redirect_uri text, p_challenge text, p_seconds integer, p_agent text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_user uuid;
  v_grant uuid;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.oauth', 'on', true);
  SELECT user_id INTO v_user FROM sessions WHERE token_hash = p_session_hash AND expires_at > now();
  IF v_user IS NULL THEN
    RAISE EXCEPTION 'sign in first' USING ERRCODE = 'CN401';
  END IF;
  IF NOT EXISTS (SELECT 1 FROM memberships WHERE user_id = v_user AND org_id = p_org) THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
  -- a grant is reused only as it was given: bound to the same agent, or to none
  SELECT id INTO v_grant FROM oauth_grants WHERE user_id = v_user AND client_id = p_client_id
    AND resource = p_resource AND org_id = p_org AND revoked_at IS NULL
    AND agent IS NOT DISTINCT FROM p_agent;
  IF v_grant IS NULL THEN
    v_grant := gen_random_uuid();
    INSERT INTO oauth_grants (id, client_id, user_id, org_id, resource, scope, agent)
      VALUES (v_grant, p_client_id, v_user, p_org, p_resource, p_scope, p_agent);
  END IF;
  INSERT INTO oauth_codes (hash, grant_id, redirect_uri, code_challenge, expires_at)
    VALUES (p_code_hash, v_grant, p_redirect_uri, p_challenge, now() + make_interval(secs => p_seconds));
  -- a spent or expired code is kept an hour, to know a replay when it comes
  DELETE FROM oauth_codes WHERE grant_id = v_grant AND expires_at < now() - interval '1 hour';
  RETURN jsonb_build_object('grant_id', v_grant);
END $function$;
