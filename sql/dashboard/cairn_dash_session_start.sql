-- A new session showing the user's first org; the user's expired sessions are dropped.
CREATE OR REPLACE FUNCTION public.cairn_dash_session_start(p_token_hash text, p_user uuid, p_csrf text, p_seconds integer)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  DELETE FROM sessions WHERE user_id = p_user AND expires_at <= now();
  INSERT INTO sessions (token_hash, user_id, org_id, csrf, expires_at)
    VALUES (p_token_hash, p_user,
      (SELECT m.org_id FROM memberships m WHERE m.user_id = p_user ORDER BY m.created_at, m.org_id LIMIT 1),
      p_csrf, now() + make_interval(secs => p_seconds));
END $function$;
