-- The invitation a link names (its id and the hash of its secret), for the signed-in person who
-- opened it: which org, who invited, until when, the email it is for, and whether that is theirs.
-- NULL when the secret does not match or it lapsed.
CREATE OR REPLACE FUNCTION public.cairn_dash_invitation(p_token_hash text, p_id uuid, p_code_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_s sessions;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT * INTO v_s FROM sessions WHERE token_hash = p_token_hash AND expires_at > now();
  IF v_s.token_hash IS NULL THEN
    RAISE EXCEPTION 'sign in first' USING ERRCODE = 'CN401';
  END IF;
  PERFORM set_config('cairn.operator', 'on', true); -- the org's name
  RETURN (SELECT jsonb_build_object('id', i.id, 'org_id', i.org_id, 'org_name', o.name, 'invited_by', i.invited_by,
      'email', i.email, 'expires_at', i.expires_at, 'yours', i.email = u.email)
    FROM invitations i JOIN orgs o ON o.id = i.org_id JOIN users u ON u.id = v_s.user_id
    WHERE i.id = p_id AND i.code_hash = p_code_hash AND i.expires_at > now());
END $function$;
