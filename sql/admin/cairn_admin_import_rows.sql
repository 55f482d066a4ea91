-- Operator: one batch of an import's rows of one part (cairn_admin_export_page's shapes), into an
-- org an import has begun on. Entries and artifacts keep their ids (the ledger's hashes cover
-- them); an id this install already holds is refused. Artifacts' bytes are stored under
-- p_org/<id> by the caller before their rows. Events must continue the chain from the head: each
-- recomputed hash must be the one given (a sealed event, whose content the export left out, only
-- links), so an edited file is refused at its first changed event. Events and projects are staged
-- (import_staging) for cairn_admin_import_end, which adds them at once.
CREATE OR REPLACE FUNCTION public.cairn_admin_import_rows(p_org uuid, p_part text, p_rows jsonb)
 RETURNS integer
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_h ledger_heads;
  v_chain uuid;
  v_last timestamptz;
  v_taken uuid;
  r jsonb;
  l ledger;
BEGIN
  v_h := cairn_admin_import_head(p_org);
  IF p_part IN ('entry', 'artifact') THEN
    SELECT o.id INTO v_taken FROM jsonb_array_elements(p_rows) x JOIN object_ids o ON o.id = (x->>'id')::uuid LIMIT 1;
    IF v_taken IS NOT NULL THEN
      RAISE EXCEPTION 'id % of the export is already used in this install (is the org it came from still here?); an export is imported into another install', v_taken
        USING ERRCODE = 'CN409';
    END IF;
    INSERT INTO object_ids (id) SELECT (x->>'id')::uuid FROM jsonb_array_elements(p_rows) x;
  END IF;
  CASE p_part
  WHEN 'project' THEN
    INSERT INTO import_staging (org_id, part, n, row)
      SELECT p_org, 'project', coalesce((SELECT max(n) FROM import_staging WHERE org_id = p_org AND part = 'project'), 0) + x.i, x.r
      FROM jsonb_array_elements(p_rows) WITH ORDINALITY x(r, i);
  WHEN 'entry' THEN
    INSERT INTO entries (id, org_id, kind, content, content_sha256, rationale, source, title, status, steps, tags,
        scope, project, agent, metadata, created_at, updated_at, version, paths, commit, confirmed_at, updated_by,
        last_change, supersedes, superseded_by, expires_at)
      SELECT e.id, p_org, e.kind, e.content, e.content_sha256, e.rationale, e.source, e.title, e.status, e.steps,
        coalesce(e.tags, '{}'), e.scope, e.project, e.agent, coalesce(e.metadata, '{}'), e.created_at, e.updated_at,
        e.version, e.paths, e.commit, e.confirmed_at, e.updated_by, e.last_change, e.supersedes, e.superseded_by,
        e.expires_at
      FROM jsonb_populate_recordset(NULL::entries, p_rows) e;
  WHEN 'version' THEN
    INSERT INTO entry_versions (org_id, entry_id, version, title, status, steps, content, updated_at, updated_by)
      SELECT p_org, v.entry_id, v.version, v.title, v.status, v.steps, v.content, v.updated_at, v.updated_by
      FROM jsonb_populate_recordset(NULL::entry_versions, p_rows) v;
    PERFORM cairn_store_bytes(p_org, coalesce(sum(cairn_version_bytes(v.content, v.title, v.steps)), 0)::bigint, NULL::integer, NULL::bigint)
      FROM jsonb_populate_recordset(NULL::entry_versions, p_rows) v;
  WHEN 'artifact' THEN
    INSERT INTO artifacts (id, org_id, name, version, size, sha256, content_type, scope, project, agent, blob_key,
        metadata, created_at)
      SELECT a.id, p_org, a.name, a.version, a.size, a.sha256, a.content_type, a.scope, a.project, a.agent,
        p_org || '/' || a.id, coalesce(a.metadata, '{}'), a.created_at
      FROM jsonb_populate_recordset(NULL::artifacts, p_rows) a;
  WHEN 'event' THEN
    v_chain := coalesce(v_h.chain_id, p_org);
    SELECT (row->>'at')::timestamptz INTO v_last FROM import_staging WHERE org_id = p_org AND part = 'event' AND n = v_h.seq;
    FOR r IN SELECT * FROM jsonb_array_elements(p_rows) LOOP
      l := jsonb_populate_record(NULL::ledger, r);
      IF l.seq IS DISTINCT FROM v_h.seq + 1 OR l.prev_hash IS DISTINCT FROM v_h.hash THEN
        RAISE EXCEPTION 'event: seq % does not follow seq % of the chain (its number or prev_hash); the file is not whole or was changed (cairn ledger verify --file says where)',
          coalesce(l.seq::text, '?'), v_h.seq USING ERRCODE = 'CN422';
      END IF;
      l.org_id := p_org;
      IF coalesce((r->>'sealed')::boolean, false) THEN
        -- a private event the export left out: its time is not known, the one before it stands in
        l.at := coalesce(v_last, now());
        l.agent := '';
        l.op := 'sealed';
        l.entry_id := NULL;
        l.project := NULL;
        l.content_sha256 := NULL;
        l.reason := NULL;
        l.salt := NULL;
        l.actor_kind := NULL;
        l.verified := false;
        l.private := true;
      ELSE
        l.verified := coalesce(l.verified, false);
        IF l.actor_kind NOT IN ('agent', 'member', 'operator') THEN
          RAISE EXCEPTION 'event: seq % has actor_kind "%"; it is agent, member, operator or absent', l.seq, l.actor_kind
            USING ERRCODE = 'CN422';
        END IF;
        IF cairn_ledger_hash(l.prev_hash, v_chain, l) IS DISTINCT FROM l.hash THEN
          RAISE EXCEPTION 'event: seq %''s hash does not match its content; the file was changed (cairn ledger verify --file says where)',
            l.seq USING ERRCODE = 'CN422';
        END IF;
        l.private := coalesce(l.private, false);
      END IF;
      INSERT INTO import_staging (org_id, part, n, row) VALUES (p_org, 'event', l.seq, to_jsonb(l));
      v_h.seq := l.seq;
      v_h.hash := l.hash;
      v_last := l.at;
    END LOOP;
    UPDATE ledger_heads SET seq = v_h.seq, hash = v_h.hash WHERE org_id = p_org;
  ELSE
    RAISE EXCEPTION 'part: % is not a part of an export', p_part USING ERRCODE = 'CN422';
  END CASE;
  RETURN jsonb_array_length(p_rows);
END $function$;
