-- recall: authenticates the key and ranks as its agent (cairn_recall_for).
CREATE OR REPLACE FUNCTION public.cairn_recall(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN cairn_recall_for(cairn_auth(p_key_hash), p_agent, p_project, p_args);
END $function$;
