-- plan: create, or update title / steps / status of an existing plan. The allowed status moves
-- come from the caller (the domain owns the rules): `allowed_from` lists the statuses from which
-- the requested status may be reached, `final` the statuses that end a plan.
CREATE OR REPLACE FUNCTION public.cairn_plan(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_id uuid := (p_args->>'id')::uuid;
  v_scope text;
  v_status text;
  v_title text;
  v_steps jsonb;
  v_content text;
  v_e entries;
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  IF coalesce((p_args->>'update')::boolean, false) THEN
    SELECT * INTO v_e FROM entries
      WHERE org_id = v_org AND id = v_id AND (scope <> 'agent' OR agent = p_agent) FOR UPDATE;
    IF NOT FOUND THEN
      PERFORM cairn_missing(v_org, v_id, 'plan');
    END IF;
    IF v_e.kind <> 'plan' THEN
      RAISE EXCEPTION 'id: % is a %, not a plan', v_id, v_e.kind USING ERRCODE = 'CN422';
    END IF;
    IF v_e.status IN (SELECT jsonb_array_elements_text(p_args->'final')) THEN
      RAISE EXCEPTION 'plan % is %, which is final; create a new plan instead', v_id, v_e.status
        USING ERRCODE = 'CN409';
    END IF;
    v_status := coalesce(p_args->>'status', v_e.status);
    IF v_status <> v_e.status
       AND v_e.status NOT IN (SELECT jsonb_array_elements_text(p_args->'allowed_from')) THEN
      RAISE EXCEPTION 'status: a plan cannot move from % to %', v_e.status, v_status
        USING ERRCODE = 'CN409';
    END IF;
    v_title := coalesce(p_args->>'title', v_e.title);
    v_steps := CASE WHEN p_args ? 'steps' THEN p_args->'steps' ELSE v_e.steps END;
    v_content := cairn_plan_content(v_title, v_steps);
    UPDATE entries SET title = v_title, steps = v_steps, status = v_status, content = v_content,
        content_sha256 = cairn_sha256(v_content), version = version + 1, updated_at = now()
      WHERE org_id = v_org AND id = v_id RETURNING * INTO v_e;
    PERFORM cairn_ledger_append(v_org, p_agent, 'plan.update', v_e.id, v_e.project,
      v_e.content_sha256, NULL, v_e.scope = 'agent');
    RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'project', v_proj);
  END IF;
  v_scope := cairn_write_scope(p_args->>'scope', NULL, v_proj);
  IF v_scope = 'org' THEN
    v_proj := NULL;
  END IF;
  v_steps := coalesce(p_args->'steps', '[]'::jsonb);
  v_content := cairn_plan_content(p_args->>'title', v_steps);
  INSERT INTO entries (id, org_id, kind, content, content_sha256, title, status, steps, tags,
      scope, project, agent, metadata)
    VALUES (v_id, v_org, 'plan', v_content, cairn_sha256(v_content), p_args->>'title',
      p_args->>'status', v_steps,
      ARRAY(SELECT jsonb_array_elements_text(coalesce(p_args->'tags', '[]'::jsonb))),
      v_scope, v_proj, p_agent, coalesce(p_args->'metadata', '{}'::jsonb))
    RETURNING * INTO v_e;
  INSERT INTO object_ids (id) VALUES (v_e.id);
  PERFORM cairn_ledger_append(v_org, p_agent, 'plan.create', v_e.id, v_proj, v_e.content_sha256, NULL,
    v_e.scope = 'agent');
  RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'project', v_proj);
END $function$;
