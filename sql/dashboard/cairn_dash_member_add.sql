-- Settings, members: an owner adds an existing account, by its email, as a member.
CREATE OR REPLACE FUNCTION public.cairn_dash_member_add(p_token_hash text, p_email text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_owner(p_token_hash);
  v_user uuid;
BEGIN
  SELECT id INTO v_user FROM users WHERE email = p_email;
  IF v_user IS NULL THEN
    RAISE EXCEPTION 'email: no account has this email; ask them to create one first, then add them'
      USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO memberships (user_id, org_id, role) VALUES (v_user, a.org_id, 'member') ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'email: % is already a member', p_email USING ERRCODE = 'CN409';
  END IF;
  RETURN jsonb_build_object('user_id', v_user, 'email', p_email, 'role', 'member');
END $function$;
