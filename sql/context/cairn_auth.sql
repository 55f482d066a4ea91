CREATE OR REPLACE FUNCTION public.cairn_auth(p_key_hash text)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN cairn_authenticate(p_key_hash, true);
END $function$;
