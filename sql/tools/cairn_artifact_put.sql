-- artifact_put: records a new version whose bytes the service has already written under the
-- org's prefix. `org_id` is the org the bytes were written for; it must be the key's org.
CREATE OR REPLACE FUNCTION public.cairn_artifact_put(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_scope text := cairn_write_scope(p_args->>'scope', NULL, v_proj);
  v_name text := p_args->>'name';
  v_version int;
  v_a artifacts;
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  IF v_org <> (p_args->>'org_id')::uuid THEN
    RAISE EXCEPTION 'invalid or revoked API key' USING ERRCODE = 'CN401';
  END IF;
  IF v_scope = 'org' THEN
    v_proj := NULL;
  END IF;
  PERFORM pg_advisory_xact_lock(hashtextextended(v_org::text || '/' || v_name, 0));
  SELECT coalesce(max(version), 0) + 1 INTO v_version FROM artifacts
    WHERE org_id = v_org AND name = v_name AND scope = v_scope
      AND project IS NOT DISTINCT FROM v_proj AND (scope <> 'agent' OR agent = p_agent);
  INSERT INTO artifacts (id, org_id, name, version, size, sha256, content_type, scope, project,
      agent, blob_key, metadata)
    VALUES ((p_args->>'id')::uuid, v_org, v_name, v_version, (p_args->>'size')::bigint,
      p_args->>'sha256', p_args->>'content_type', v_scope, v_proj, p_agent, p_args->>'blob_key',
      coalesce(p_args->'metadata', '{}'::jsonb))
    RETURNING * INTO v_a;
  INSERT INTO object_ids (id) VALUES (v_a.id);
  PERFORM cairn_ledger_append(v_org, p_agent, 'artifact_put', v_a.id, v_proj, v_a.sha256, NULL,
    v_a.scope = 'agent');
  RETURN jsonb_build_object('artifact', cairn_artifact_json(v_a), 'project', v_proj);
END $function$;
