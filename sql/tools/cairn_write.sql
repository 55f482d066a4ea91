-- remember, observe, decide, note: one new entry (or, for remember, the existing duplicate),
-- replacing an earlier one when `supersedes` names it: everywhere it was read, or, for a project
-- entry replacing an org entry, in its project only (superseded_in; result `replaced_for`).
CREATE OR REPLACE FUNCTION public.cairn_write(p_key_hash text, p_agent text, p_project text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, true);
  v_kind text := p_args->>'kind';
  v_scope text := cairn_write_scope(p_args->>'scope', p_args->>'default_scope', v_proj);
  v_content text := p_args->>'content';
  v_sha text := cairn_sha256(p_args->>'content');
  v_supersedes uuid;
  v_old entries;
  v_e entries;
BEGIN
  p_agent := cairn_agent(p_agent, p_args->>'agent_source');
  -- an id, or a handle of an entry the caller may read
  v_supersedes := cairn_entry_ref(v_org, p_args->>'supersedes', p_agent, 'supersedes', 'supersedes: entry');
  IF v_scope = 'org' THEN
    v_proj := NULL;
  END IF;
  IF v_supersedes IS NULL AND coalesce((p_args->>'dedup')::boolean, false) THEN
    SELECT * INTO v_e FROM entries
      WHERE org_id = v_org AND content_sha256 = v_sha AND kind = v_kind AND scope = v_scope
        AND project IS NOT DISTINCT FROM v_proj AND (scope <> 'agent' OR agent = p_agent)
        AND superseded_by IS NULL AND (expires_at IS NULL OR expires_at > now())
        AND content = v_content
      ORDER BY created_at DESC LIMIT 1;
    IF FOUND THEN
      -- written again: it holds as of now (what changed on its paths before is no reason to doubt it)
      UPDATE entries SET confirmed_at = now() WHERE org_id = v_org AND id = v_e.id RETURNING * INTO v_e;
      RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'deduplicated', true, 'project', v_proj);
    END IF;
  END IF;
  IF v_supersedes IS NOT NULL THEN
    SELECT * INTO v_old FROM entries
      WHERE org_id = v_org AND id = v_supersedes AND (scope <> 'agent' OR agent = p_agent)
      FOR UPDATE;
    IF NOT FOUND THEN
      PERFORM cairn_missing(v_org, v_supersedes, 'supersedes: entry');
    END IF;
    -- memories, observations and decisions replace one another (a convention replaced by a
    -- decision, a workaround by a fix); a plan is updated in place; a note is replaced by nothing
    IF v_old.kind = 'plan' THEN
      RAISE EXCEPTION 'supersedes: % is a plan; update it with plan {id: "%"} instead', v_supersedes, v_supersedes
        USING ERRCODE = 'CN422';
    ELSIF v_old.kind NOT IN ('memory', 'observation', 'decision') THEN
      RAISE EXCEPTION 'supersedes: % is a %; only a memory, observation or decision can be superseded',
        v_supersedes, v_old.kind USING ERRCODE = 'CN422';
    END IF;
    IF v_old.scope = 'org' AND v_scope = 'project' AND v_old.superseded_in ? v_proj THEN
      RAISE EXCEPTION 'supersedes: % is already replaced in project % by %; supersede that one instead',
        v_supersedes, v_proj, v_old.superseded_in ->> v_proj USING ERRCODE = 'CN409';
    END IF;
    IF v_old.superseded_by IS NOT NULL THEN
      -- the replacement's id only when the caller may read it
      IF EXISTS (SELECT 1 FROM entries r WHERE r.org_id = v_org AND r.id = v_old.superseded_by
          AND (r.scope <> 'agent' OR r.agent = p_agent)) THEN
        RAISE EXCEPTION 'supersedes: % is already superseded by %; supersede that one instead',
          v_supersedes, v_old.superseded_by USING ERRCODE = 'CN409';
      END IF;
      RAISE EXCEPTION 'supersedes: % is already superseded; recall the current entry and supersede that one',
        v_supersedes USING ERRCODE = 'CN409';
    END IF;
    -- a replacement is read by everyone who read what it replaces: a private note would hide a
    -- shared entry from all but its writer, an entry of another project from that project. One
    -- widening rule: a project entry replaces an org entry for its own project only (below).
    IF (v_old.scope <> 'agent' AND v_scope = 'agent')
        OR (v_old.scope = 'project' AND v_scope = 'project' AND v_old.project IS DISTINCT FROM v_proj) THEN
      RAISE EXCEPTION 'supersedes: % is read by % and its replacement would be read by %: write the replacement with scope %',
        v_supersedes,
        CASE v_old.scope WHEN 'org' THEN 'the whole org' ELSE 'everyone in project ' || v_old.project END,
        CASE v_scope WHEN 'agent' THEN 'you alone' ELSE 'project ' || coalesce(v_proj, '(none)') END,
        CASE v_old.scope WHEN 'org' THEN 'org (or project, to replace it in your project only)'
          ELSE 'project (in ' || v_old.project || ') or org' END
        USING ERRCODE = 'CN422';
    END IF;
  END IF;
  INSERT INTO entries (id, org_id, kind, content, content_sha256, rationale, source, tags, scope,
      project, agent, metadata, supersedes, expires_at, paths, commit)
    VALUES ((p_args->>'id')::uuid, v_org, v_kind, v_content, v_sha, p_args->>'rationale',
      p_args->>'source',
      ARRAY(SELECT jsonb_array_elements_text(coalesce(p_args->'tags', '[]'::jsonb))),
      v_scope, v_proj, p_agent, coalesce(p_args->'metadata', '{}'::jsonb), v_supersedes,
      CASE WHEN p_args ? 'ttl_seconds'
        THEN now() + make_interval(secs => (p_args->>'ttl_seconds')::double precision) END,
      CASE WHEN p_args ? 'paths' THEN ARRAY(SELECT jsonb_array_elements_text(p_args->'paths')) END,
      p_args->>'commit')
    RETURNING * INTO v_e;
  INSERT INTO object_ids (id) VALUES (v_e.id);
  IF v_old.scope = 'org' AND v_scope = 'project' THEN
    -- the org entry stays current everywhere but this project (its row otherwise unchanged)
    UPDATE entries SET superseded_in = coalesce(superseded_in, '{}'::jsonb) || jsonb_build_object(v_proj, v_e.id)
      WHERE org_id = v_org AND id = v_supersedes;
  ELSIF v_supersedes IS NOT NULL THEN
    UPDATE entries SET superseded_by = v_e.id, updated_at = now()
      WHERE org_id = v_org AND id = v_supersedes;
  END IF;
  PERFORM cairn_ledger_append(v_org, p_agent, p_args->>'op', v_e.id, v_proj, v_sha, NULL, v_scope = 'agent');
  RETURN jsonb_build_object('entry', cairn_entry_json(v_e), 'deduplicated', false, 'project', v_proj,
    'replaced_for', CASE WHEN v_old.scope = 'org' AND v_scope = 'project' THEN v_proj END);
END $function$;
