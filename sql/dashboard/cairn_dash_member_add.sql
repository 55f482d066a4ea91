-- Settings, members: an owner invites a person by email. Nobody joins an org without saying yes:
-- the invitation waits for the account of that email to accept it with the secret of its link
-- (p_code_hash; the owner hands the link over: cairn_dash_invitation_answer), and the answer is
-- the same whether or not an account has the email (an owner cannot learn who has an account).
-- Inviting again renews it with a new secret; a current member is refused (the owner sees them).
CREATE OR REPLACE FUNCTION public.cairn_dash_member_add(p_token_hash text, p_email text, p_code_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_owner(p_token_hash);
  v_email text := lower(p_email);
  v_i invitations;
BEGIN
  IF EXISTS (SELECT 1 FROM memberships m JOIN users u ON u.id = m.user_id
      WHERE m.org_id = a.org_id AND u.email = v_email) THEN
    RAISE EXCEPTION 'email: % is already a member', v_email USING ERRCODE = 'CN409';
  END IF;
  INSERT INTO invitations (id, org_id, email, invited_by, expires_at, code_hash)
    VALUES (gen_random_uuid(), a.org_id, v_email, a.email, now() + interval '14 days', p_code_hash)
    ON CONFLICT (org_id, email) DO UPDATE SET invited_by = excluded.invited_by, created_at = now(),
      expires_at = excluded.expires_at, code_hash = excluded.code_hash
    RETURNING * INTO v_i;
  RETURN jsonb_build_object('id', v_i.id, 'email', v_email, 'expires_at', v_i.expires_at);
END $function$;
