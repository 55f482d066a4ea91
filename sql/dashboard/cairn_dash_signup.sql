-- Sign-up: the account and its first org, in one statement.
CREATE OR REPLACE FUNCTION public.cairn_dash_signup(p_user uuid, p_email text, p_hash text, p_org uuid, p_org_name text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  BEGIN
    INSERT INTO users (id, email, password_hash) VALUES (p_user, p_email, p_hash);
  EXCEPTION WHEN unique_violation THEN
    RAISE EXCEPTION 'email: an account with this email exists; sign in instead' USING ERRCODE = 'CN409';
  END;
  RETURN jsonb_build_object('user_id', p_user, 'org', cairn_dash_org_create(p_user, p_org, p_org_name));
END $function$;
