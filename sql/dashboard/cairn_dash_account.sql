-- The stored password hash of an account, for the service to check; NULL when there is none.
CREATE OR REPLACE FUNCTION public.cairn_dash_account(p_email text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  RETURN (SELECT jsonb_build_object('user_id', id, 'password_hash', password_hash) FROM users WHERE email = p_email);
END $function$;
