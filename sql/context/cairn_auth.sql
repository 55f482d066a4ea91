-- Authenticates a tool call's credential (counted as a tool call against the plan's limits) and
-- pins the statement to its org; raises CN401 for an unknown or revoked one.
CREATE OR REPLACE FUNCTION public.cairn_auth(p_key_hash text)
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN cairn_authenticate(p_key_hash, true);
END $function$;
