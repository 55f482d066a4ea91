-- Operator: ends an import. Done (p_abort false): the staged ledger must end at p_head (the
-- export's head: {seq, hash}); its events and the projects are added at once, each agent's
-- activity counted, the org entries that project entries replaced for their project marked so
-- (superseded_in, which an export leaves out: it is read off the replacements' supersedes), and
-- writes are let in again (chained after the imported head). Aborted:
-- everything imported is deleted — entries, versions, artifacts (the caller deletes the bytes it
-- stored), what was staged — and the org is as it was before: an org the import made
-- (cairn_admin_import_begin) is deleted with it, so a refused import leaves no org behind.
CREATE OR REPLACE FUNCTION public.cairn_admin_import_end(p_org uuid, p_head jsonb, p_abort boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET jit TO 'off'
AS $function$
DECLARE
  v_h ledger_heads;
  v_ids uuid[];
  v_made boolean;
BEGIN
  v_h := cairn_admin_import_head(p_org);
  IF p_abort THEN
    v_made := EXISTS (SELECT 1 FROM import_staging WHERE org_id = p_org AND part = 'org');
    WITH e AS (DELETE FROM entries WHERE org_id = p_org RETURNING id),
      a AS (DELETE FROM artifacts WHERE org_id = p_org RETURNING id)
    SELECT array_agg(id) INTO v_ids FROM (SELECT id FROM e UNION ALL SELECT id FROM a) x;
    DELETE FROM object_ids WHERE id = ANY(v_ids);
    DELETE FROM entry_versions WHERE org_id = p_org;
    DELETE FROM import_staging WHERE org_id = p_org;
    UPDATE ledger_heads SET seq = 0, hash = repeat('0', 64), chain_id = NULL, importing = false WHERE org_id = p_org;
    -- the org held nothing before: the bytes the import added (its plan versions' included) go
    UPDATE org_usage SET stored_bytes = 0 WHERE org_id = p_org;
    DELETE FROM usage_pending WHERE org_id = p_org AND calls = 0;
    IF v_made THEN
      -- what is left of it (its head, counters, usage rows) goes with it: their foreign keys cascade
      DELETE FROM orgs WHERE id = p_org;
      RETURN jsonb_build_object('events', 0, 'deleted', true);
    END IF;
  ELSE
    IF v_h.seq IS DISTINCT FROM (p_head->>'seq')::bigint OR v_h.hash IS DISTINCT FROM p_head->>'hash' THEN
      RAISE EXCEPTION 'file: the imported ledger ends at seq % but the export''s head is seq %; the file is not whole', v_h.seq,
        coalesce(p_head->>'seq', '?') USING ERRCODE = 'CN422';
    END IF;
    INSERT INTO ledger SELECT (jsonb_populate_record(NULL::ledger, s.row)).* FROM import_staging s
      WHERE s.org_id = p_org AND s.part = 'event' ORDER BY s.n;
    INSERT INTO projects (org_id, canonical, created_at)
      SELECT p_org, p.canonical, p.created_at FROM import_staging s, jsonb_populate_record(NULL::projects, s.row) p
      WHERE s.org_id = p_org AND s.part = 'project';
    DELETE FROM import_staging WHERE org_id = p_org;
    INSERT INTO agent_activity (org_id, agent, private, events, first_at, last_at)
      SELECT p_org, agent, private, count(*), min(at), max(at) FROM ledger
      WHERE org_id = p_org AND op <> 'sealed' AND coalesce(actor_kind, 'agent') = 'agent' GROUP BY agent, private;
    UPDATE entries x SET superseded_in = r.replaced
      FROM (SELECT e.supersedes AS id, jsonb_object_agg(e.project, e.id ORDER BY e.id) AS replaced
            FROM entries e JOIN entries o ON o.org_id = p_org AND o.id = e.supersedes AND o.scope = 'org'
            WHERE e.org_id = p_org AND e.scope = 'project' AND e.supersedes IS NOT NULL
            GROUP BY e.supersedes) r
      WHERE x.org_id = p_org AND x.id = r.id;
    UPDATE ledger_heads SET importing = false WHERE org_id = p_org;
  END IF;
  PERFORM cairn_org_seal(p_org, true);
  RETURN jsonb_build_object('events', (SELECT seq FROM ledger_heads WHERE org_id = p_org));
END $function$;
