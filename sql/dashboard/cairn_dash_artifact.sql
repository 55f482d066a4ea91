-- One shared artifact of the session's org with the key of its bytes; NULL when there is none.
CREATE OR REPLACE FUNCTION public.cairn_dash_artifact(p_token_hash text, p_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT jsonb_build_object('artifact', cairn_artifact_json(x), 'blob_key', x.blob_key)
    FROM artifacts x WHERE x.org_id = a.org_id AND x.id = p_id AND x.scope <> 'agent');
END $function$;
