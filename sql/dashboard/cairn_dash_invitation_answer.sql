-- The invitation's page: the signed-in person accepts or declines an invitation to their email,
-- with the secret of its link. Accepting makes them a member and shows them the org; either way
-- the invitation is gone. Without the secret, to another email, or lapsed: not found.
CREATE OR REPLACE FUNCTION public.cairn_dash_invitation_answer(p_token_hash text, p_id uuid, p_accept boolean, p_code_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_s sessions;
  v_i invitations;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT * INTO v_s FROM sessions WHERE token_hash = p_token_hash AND expires_at > now();
  IF v_s.token_hash IS NULL THEN
    RAISE EXCEPTION 'sign in first' USING ERRCODE = 'CN401';
  END IF;
  DELETE FROM invitations i USING users u
    WHERE i.id = p_id AND u.id = v_s.user_id AND i.email = u.email AND i.expires_at > now()
      AND i.code_hash = p_code_hash
    RETURNING i.* INTO v_i;
  IF v_i.id IS NULL THEN
    RAISE EXCEPTION 'invitation: none of your open invitations has this id' USING ERRCODE = 'CN404';
  END IF;
  IF p_accept THEN
    INSERT INTO memberships (user_id, org_id, role) VALUES (v_s.user_id, v_i.org_id, 'member') ON CONFLICT DO NOTHING;
    UPDATE sessions SET org_id = v_i.org_id WHERE token_hash = p_token_hash;
  END IF;
  RETURN jsonb_build_object('org_id', v_i.org_id, 'accepted', p_accept);
END $function$;
