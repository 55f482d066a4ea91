-- The user and org a session acts for: 401 without a live session, 403 outside the user's orgs.
-- The statement's ledger events are a member's (cairn.actor_kind; the email names the actor).
CREATE OR REPLACE FUNCTION public.cairn_dash_actor(p_token_hash text, OUT user_id uuid, OUT email text, OUT org_id uuid)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT s.user_id, u.email, s.org_id INTO user_id, email, org_id
    FROM sessions s JOIN users u ON u.id = s.user_id WHERE s.token_hash = p_token_hash AND s.expires_at > now();
  IF user_id IS NULL THEN
    RAISE EXCEPTION 'sign in first' USING ERRCODE = 'CN401';
  END IF;
  IF org_id IS NULL OR NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = cairn_dash_actor.user_id
      AND m.org_id = cairn_dash_actor.org_id) THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
  PERFORM set_config('cairn.org', org_id::text, true);
  PERFORM set_config('cairn.actor_kind', 'member', true);
END $function$;
