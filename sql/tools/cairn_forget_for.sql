-- forget for a reader of an org: cairn_forget authenticates a key and forgets as its agent; the
-- dashboard forgets as its user. p_reader decides which private entries may go (an agent's own),
-- p_actor is who the ledger names.
CREATE OR REPLACE FUNCTION public.cairn_forget_for(p_org uuid, p_reader text, p_actor text, p_args jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid := p_org;
  v_ids uuid[];
  v_unknown text[];
  v_reason text := p_args->>'reason';
  v_done uuid[] := '{}';
  v_blobs text[] := '{}';
  v_projects text[] := '{}';
  v_restored uuid[] := '{}';
  r record;
BEGIN
  -- each an id, or a handle of an entry the reader may read (artifacts have none); a handle that
  -- names none is not found as given
  SELECT coalesce(array_agg(DISTINCT x.id) FILTER (WHERE x.id IS NOT NULL), '{}'),
      coalesce(array_agg(DISTINCT j.ref) FILTER (WHERE x.id IS NULL), '{}')
    INTO v_ids, v_unknown
    FROM jsonb_array_elements_text(p_args->'ids') AS j(ref),
      cairn_entry_ref(v_org, j.ref, p_reader, coalesce(p_args->>'field', 'ids')) AS x(id);
  IF EXISTS (SELECT 1 FROM object_ids o WHERE o.id = ANY(v_ids)
      AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.org_id = v_org AND e.id = o.id)
      AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.org_id = v_org AND a.id = o.id)) THEN
    RAISE EXCEPTION 'one of these ids belongs to another org; nothing was forgotten'
      USING ERRCODE = 'CN403';
  END IF;
  FOR r IN DELETE FROM entries WHERE org_id = v_org AND id = ANY(v_ids)
      AND (scope <> 'agent' OR agent = p_reader)
      RETURNING id, project, content_sha256, supersedes, scope LOOP
    v_done := v_done || r.id;
    v_projects := v_projects || r.project;
    v_restored := v_restored || r.supersedes;
    PERFORM cairn_ledger_append(v_org, p_actor, 'forget', r.id, r.project, r.content_sha256, v_reason,
      r.scope = 'agent');
  END LOOP;
  -- what a forgotten entry replaced is current again: found by its id (the forgotten entry's
  -- supersedes), not by a search of the org's entries for the link back
  UPDATE entries SET superseded_by = NULL, updated_at = now()
    WHERE org_id = v_org AND id = ANY(v_restored) AND superseded_by = ANY(v_done);
  -- and an org entry a forgotten project entry replaced for its project is current there again
  UPDATE entries x SET superseded_in = (SELECT jsonb_object_agg(j.project, j.id)
      FROM jsonb_each_text(x.superseded_in) AS j(project, id) WHERE j.id::uuid <> ALL(v_done))
    WHERE org_id = v_org AND id = ANY(v_restored) AND superseded_in IS NOT NULL;
  FOR r IN DELETE FROM artifacts WHERE org_id = v_org AND id = ANY(v_ids)
      AND (scope <> 'agent' OR agent = p_reader)
      RETURNING id, project, sha256, blob_key, scope LOOP
    v_done := v_done || r.id;
    v_blobs := v_blobs || r.blob_key;
    v_projects := v_projects || r.project;
    PERFORM cairn_ledger_append(v_org, p_actor, 'forget', r.id, r.project, r.sha256, v_reason, r.scope = 'agent');
  END LOOP;
  DELETE FROM object_ids WHERE id = ANY(v_done);
  -- a plan's kept earlier versions go with it, and their bytes
  PERFORM cairn_store_bytes(v_org, -coalesce((SELECT sum(cairn_version_bytes(v.content, v.title, v.steps))
      FROM entry_versions v WHERE v.org_id = v_org AND v.entry_id = ANY(v_done)), 0)::bigint, NULL, NULL);
  DELETE FROM entry_versions WHERE org_id = v_org AND entry_id = ANY(v_done);
  -- nothing derived from the forgotten rows stays (their words leave term_stats when the org's
  -- seal folds their removal, cairn_org_seal): counts that fell to nothing, which name a project
  -- and a private agent, and the rows of projects no entry or artifact is in any more
  DELETE FROM scope_counts WHERE org_id = v_org AND n <= 0;
  DELETE FROM projects p WHERE p.org_id = v_org AND p.canonical = ANY(v_projects)
    AND NOT EXISTS (SELECT 1 FROM entries e WHERE e.org_id = v_org AND e.project_key = p.canonical)
    AND NOT EXISTS (SELECT 1 FROM artifacts a WHERE a.org_id = v_org AND a.project = p.canonical);
  RETURN jsonb_build_object(
    'forgotten', to_jsonb(v_done),
    'not_found', to_jsonb(ARRAY(SELECT i::text FROM unnest(v_ids) i WHERE i <> ALL(v_done)) || v_unknown),
    -- of those, the ones forgotten before: by whom, when, why (the reader's view of the ledger)
    'forgotten_before', (SELECT coalesce(jsonb_agg(f ORDER BY f->>'at'), '[]'::jsonb)
      FROM unnest(v_ids) i, cairn_forgotten(v_org, p_reader, i) f WHERE i <> ALL(v_done) AND f IS NOT NULL),
    'blob_keys', to_jsonb(v_blobs));
END $function$;
