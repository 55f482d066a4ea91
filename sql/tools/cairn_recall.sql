-- recall: authenticates the key and ranks as its agent (cairn_agent, cairn_recall_for).
CREATE OR REPLACE FUNCTION public.cairn_recall(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
BEGIN
  RETURN cairn_recall_for(v_org, cairn_agent(p_agent, p_args->>'agent_source'), p_project, p_args);
END $function$;
