-- forget: authenticates the key and forgets as its agent (cairn_agent, cairn_forget_for).
CREATE OR REPLACE FUNCTION public.cairn_forget(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  RETURN cairn_forget_for(v_org, p_agent, p_agent, p_args);
END $function$;
