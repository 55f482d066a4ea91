-- The signed-in user of a session, their orgs and the one shown; NULL for an unknown or expired one.
-- Each org comes with its first owner's email, so that pickers tell apart orgs of one name.
CREATE OR REPLACE FUNCTION public.cairn_dash_session(p_token_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_s sessions;
  v_email text;
  v_orgs jsonb;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT * INTO v_s FROM sessions WHERE token_hash = p_token_hash AND expires_at > now();
  IF v_s.token_hash IS NULL THEN
    RETURN NULL;
  END IF;
  SELECT email INTO v_email FROM users WHERE id = v_s.user_id;
  PERFORM set_config('cairn.operator', 'on', true); -- the names of the user's orgs
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'role', m.role,
      'owner', (SELECT u.email FROM memberships w JOIN users u ON u.id = w.user_id
                WHERE w.org_id = o.id AND w.role = 'owner' ORDER BY w.created_at, u.email LIMIT 1))
      ORDER BY o.name, o.id), '[]')
    INTO v_orgs FROM memberships m JOIN orgs o ON o.id = m.org_id WHERE m.user_id = v_s.user_id;
  PERFORM set_config('cairn.operator', '', true);
  RETURN jsonb_build_object('user_id', v_s.user_id, 'email', v_email, 'org_id', v_s.org_id, 'csrf', v_s.csrf,
    'orgs', v_orgs);
END $function$;
