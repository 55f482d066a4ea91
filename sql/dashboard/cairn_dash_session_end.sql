-- Signs out: the session is deleted.
CREATE OR REPLACE FUNCTION public.cairn_dash_session_end(p_token_hash text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  DELETE FROM sessions WHERE token_hash = p_token_hash;
END $function$;
