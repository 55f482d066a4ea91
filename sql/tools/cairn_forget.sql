-- forget: authenticates the key and forgets as its agent (cairn_forget_for).
CREATE OR REPLACE FUNCTION public.cairn_forget(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN cairn_forget_for(cairn_auth(p_key_hash), p_agent, p_agent, p_args);
END $function$;
