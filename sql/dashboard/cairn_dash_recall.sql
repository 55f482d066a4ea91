-- Memory, in the dashboard: the recall ranking for a reader of the session's org who is no agent
-- (''), so no agent's private entries are shown.
CREATE OR REPLACE FUNCTION public.cairn_dash_recall(p_token_hash text, p_project text, p_args jsonb)
 RETURNS json
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN cairn_recall_for(a.org_id, '', p_project, p_args);
END $function$;
