-- plan: create, or update title / steps / status of an existing plan, claim or release a step.
-- The allowed status moves come from the caller (the domain owns the rules): `allowed_from` lists
-- the statuses from which the requested status may be reached, `final` the statuses that end a
-- plan. An update holds the plan's row from its read to its commit, so of concurrent updates each
-- sees the one before: `expected_version` other than the current one is refused, naming the
-- current version, who made it and what it changed; a step claimed by another agent until a time
-- still to come cannot be claimed, and only its holder releases a step (back to todo unless done);
-- a plan is done only when no step is todo or doing. Steps are named by their 0-based index, #0,
-- #1, as the arguments take them (docs/design.md, "Plans shared by agents").
CREATE OR REPLACE FUNCTION public.cairn_plan(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_id uuid;
  v_scope text;
  v_status text;
  v_title text;
  v_steps jsonb;
  v_content text;
  v_e entries;
  v_i int;
  v_step jsonb;
  v_holder text;
  v_changes text[] := '{}';
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  -- the plan to update: an id, or a handle of a plan the caller may read
  v_id := cairn_entry_ref(v_org, p_args->>'id', p_agent, 'id', 'plan');
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
    IF p_args ? 'expected_version' AND (p_args->>'expected_version')::int <> v_e.version THEN
      RAISE EXCEPTION 'expected_version: plan % is at version %, not %: % made it at %; read the plan again (recall it, or space view history) and retry with expected_version %',
        v_id, v_e.version, p_args->>'expected_version', cairn_name_text(coalesce(v_e.updated_by, v_e.agent)),
        to_char(v_e.updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
          || CASE WHEN v_e.last_change IS NULL THEN '' ELSE ' (' || v_e.last_change || ')' END, v_e.version
        USING ERRCODE = 'CN409';
    END IF;
    v_title := coalesce(p_args->>'title', v_e.title);
    IF v_title IS DISTINCT FROM v_e.title THEN
      v_changes := array_append(v_changes, 'title');
    END IF;
    IF v_status <> v_e.status THEN
      v_changes := array_append(v_changes, format('status %s → %s', v_e.status, v_status));
    END IF;
    v_steps := coalesce(v_e.steps, '[]'::jsonb);
    IF p_args ? 'steps' THEN
      -- the new list, each step keeping the claim of the step at its place when its text is the same
      SELECT coalesce(jsonb_agg(CASE WHEN o.s ? 'claimed_by' AND o.s->>'text' = n.s->>'text'
          THEN n.s || jsonb_build_object('claimed_by', o.s->'claimed_by', 'claim_expires_at', o.s->'claim_expires_at')
          ELSE n.s END ORDER BY n.i), '[]'::jsonb) INTO v_steps
        FROM jsonb_array_elements(p_args->'steps') WITH ORDINALITY AS n(s, i)
        LEFT JOIN jsonb_array_elements(v_e.steps) WITH ORDINALITY AS o(s, i) ON o.i = n.i;
      IF v_steps IS DISTINCT FROM v_e.steps THEN
        v_changes := array_append(v_changes, 'steps');
      END IF;
    END IF;
    IF p_args ? 'release_step' THEN
      v_i := (p_args->>'release_step')::int;
      SELECT * INTO v_step, v_holder FROM cairn_plan_step(v_steps, v_i, 'release_step', p_agent);
      IF v_holder IS NOT NULL THEN
        RAISE EXCEPTION 'release_step: step #% (%) is claimed by %; only % may release it before then',
          v_i, v_step->>'text', v_holder, cairn_name_text(v_step->>'claimed_by') USING ERRCODE = 'CN409';
      END IF;
      IF v_step->>'claimed_by' IS DISTINCT FROM p_agent THEN
        RAISE EXCEPTION 'release_step: step #% (%) is not claimed by you (%); only a step you claimed can be released',
          v_i, v_step->>'text', CASE WHEN v_step ? 'claimed_by'
            THEN 'the claim of ' || cairn_name_text(v_step->>'claimed_by') || ' ran out at ' || (v_step->>'claim_expires_at')
            ELSE 'nobody holds it' END USING ERRCODE = 'CN409';
      END IF;
      -- released, a step nobody works on is to do again
      v_steps := jsonb_set(v_steps, ARRAY[v_i::text], v_step - 'claimed_by' - 'claim_expires_at'
        || CASE WHEN v_step->>'status' = 'doing' THEN '{"status": "todo"}'::jsonb ELSE '{}'::jsonb END);
      v_changes := array_append(v_changes, format('step #%s released', v_i));
    END IF;
    IF p_args ? 'claim_step' THEN
      v_i := (p_args->>'claim_step')::int;
      SELECT * INTO v_step, v_holder FROM cairn_plan_step(v_steps, v_i, 'claim_step', p_agent);
      IF v_step->>'status' IN ('done', 'skipped') THEN
        RAISE EXCEPTION 'claim_step: step #% (%) is %; claim a step still to do', v_i, v_step->>'text', v_step->>'status'
          USING ERRCODE = 'CN409';
      END IF;
      IF v_holder IS NOT NULL THEN
        RAISE EXCEPTION 'claim_step: step #% (%) is claimed by %; pick another step, or claim it after then',
          v_i, v_step->>'text', v_holder USING ERRCODE = 'CN409';
      END IF;
      v_steps := jsonb_set(v_steps, ARRAY[v_i::text], v_step || jsonb_build_object('claimed_by', p_agent,
        'claim_expires_at', to_char((now() + make_interval(secs => coalesce((p_args->>'claim_seconds')::int, 900)))
          AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
        'status', CASE WHEN v_step->>'status' = 'todo' THEN 'doing' ELSE v_step->>'status' END));
      v_changes := array_append(v_changes, format('step #%s claimed by %s', v_i, cairn_name_text(p_agent)));
    END IF;
    -- a step done or skipped holds no claim
    SELECT coalesce(jsonb_agg(CASE WHEN s->>'status' IN ('done', 'skipped') THEN s - 'claimed_by' - 'claim_expires_at'
        ELSE s END ORDER BY i), '[]'::jsonb) INTO v_steps
      FROM jsonb_array_elements(v_steps) WITH ORDINALITY AS t(s, i);
    -- done means every step is: none left to do or in progress
    IF v_status = 'done' THEN
      SELECT string_agg(format('#%s (%s)', i - 1, s->>'status'), ', ' ORDER BY i) INTO v_holder
        FROM jsonb_array_elements(v_steps) WITH ORDINALITY AS t(s, i) WHERE s->>'status' IN ('todo', 'doing');
      IF v_holder IS NOT NULL THEN
        RAISE EXCEPTION 'status: plan % cannot be done while steps % are open; send steps with each of them done or skipped (in the same update or before), or set status abandoned',
          v_id, v_holder USING ERRCODE = 'CN409';
      END IF;
    END IF;
    v_content := cairn_plan_content(v_title, v_steps);
    UPDATE entries SET title = v_title, steps = v_steps, status = v_status, content = v_content,
        content_sha256 = cairn_sha256(v_content), version = version + 1, updated_at = now(),
        updated_by = p_agent, last_change = nullif(array_to_string(v_changes, '; '), '')
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
      scope, project, agent, metadata, paths, commit)
    VALUES (v_id, v_org, 'plan', v_content, cairn_sha256(v_content), p_args->>'title',
      p_args->>'status', v_steps,
      ARRAY(SELECT jsonb_array_elements_text(coalesce(p_args->'tags', '[]'::jsonb))),
      v_scope, v_proj, p_agent, coalesce(p_args->'metadata', '{}'::jsonb),
      CASE WHEN p_args ? 'paths' THEN ARRAY(SELECT jsonb_array_elements_text(p_args->'paths')) END,
      p_args->>'commit')
    RETURNING * INTO v_e;
  INSERT INTO object_ids (id) VALUES (v_e.id);
  PERFORM cairn_ledger_append(v_org, p_agent, 'plan.create', v_e.id, v_proj, v_e.content_sha256, NULL,
    v_e.scope = 'agent');
  RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'project', v_proj);
END $function$;
