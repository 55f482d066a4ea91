-- Artifacts, in the dashboard: the org's shared artifacts, newest first (a page of p_limit).
CREATE OR REPLACE FUNCTION public.cairn_dash_artifacts(p_token_hash text, p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(cairn_artifact_json(x) ORDER BY x.created_at DESC, x.id DESC), '[]'::jsonb)
    FROM (SELECT * FROM artifacts WHERE org_id = a.org_id AND scope <> 'agent'
          ORDER BY created_at DESC, id DESC LIMIT p_limit) x);
END $function$;
