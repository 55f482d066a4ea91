-- artifact_get: one version by id, or by name (the caller's project first, then org-wide; the
-- latest version unless one is named).
CREATE OR REPLACE FUNCTION public.cairn_artifact_get(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, false);
  v_a artifacts;
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  IF p_args ? 'id' THEN
    SELECT * INTO v_a FROM artifacts
      WHERE org_id = v_org AND id = (p_args->>'id')::uuid AND (scope <> 'agent' OR agent = p_agent);
    IF NOT FOUND THEN
      PERFORM cairn_missing(v_org, (p_args->>'id')::uuid, 'artifact');
    END IF;
  ELSE
    SELECT * INTO v_a FROM artifacts
      WHERE org_id = v_org AND name = p_args->>'name' AND (scope <> 'agent' OR agent = p_agent)
        AND (project IS NULL OR project = v_proj)
        AND (NOT p_args ? 'scope' OR scope = p_args->>'scope')
        AND (NOT p_args ? 'version' OR version = (p_args->>'version')::int)
      ORDER BY (project IS NOT NULL) DESC, created_at DESC, version DESC LIMIT 1;
    IF NOT FOUND THEN
      RAISE EXCEPTION 'artifact "%"% not found', p_args->>'name',
        CASE WHEN p_args ? 'version' THEN ' version ' || (p_args->>'version') ELSE '' END
        USING ERRCODE = 'CN404';
    END IF;
  END IF;
  RETURN jsonb_build_object('artifact', cairn_artifact_json(v_a), 'blob_key', v_a.blob_key,
    'project', v_proj);
END $function$;
