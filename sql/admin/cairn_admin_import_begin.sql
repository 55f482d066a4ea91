-- Operator: starts loading an export into an org (docs/design.md, "Export and import"). The org is
-- made, named as in the export, when no org has the id; an org that exists must be empty: no
-- entries, plan versions, artifacts, projects or ledger events (an org `cairn org create` made
-- has its key's event: import into an id no org has instead). Until the import ends the org's
-- writes are refused (cairn_ledger_append), and its ledger takes p_chain, the org id the imported
-- events' hashes cover. An org the import made is marked so (an `org` row in import_staging): an
-- aborted import deletes it (cairn_admin_import_end).
CREATE OR REPLACE FUNCTION public.cairn_admin_import_begin(p_org uuid, p_name text, p_chain uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_h ledger_heads;
  v_what text;
  v_made boolean := false;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  PERFORM set_config('cairn.operator', 'on', true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    INSERT INTO orgs (id, name) VALUES (p_org, p_name);
    INSERT INTO ledger_heads (org_id, seq, hash) VALUES (p_org, 0, repeat('0', 64));
    INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (p_org, 0, 0);
    v_made := true;
  END IF;
  PERFORM cairn_org_seal(p_org, true);
  SELECT * INTO v_h FROM ledger_heads WHERE org_id = p_org FOR UPDATE;
  IF v_h.importing THEN
    RAISE EXCEPTION 'org %: an import into it has not ended (another one is running, or one was cut off: cairn import --abort --org % undoes it)', p_org, p_org
      USING ERRCODE = 'CN409';
  END IF;
  SELECT string_agg(w, ', ') INTO v_what FROM (
    SELECT format('%s entries', count(*)) AS w FROM entries WHERE org_id = p_org HAVING count(*) > 0
    UNION ALL SELECT format('%s artifacts', count(*)) FROM artifacts WHERE org_id = p_org HAVING count(*) > 0
    UNION ALL SELECT format('%s projects', count(*)) FROM projects WHERE org_id = p_org HAVING count(*) > 0
    UNION ALL SELECT format('%s plan versions', count(*)) FROM entry_versions WHERE org_id = p_org HAVING count(*) > 0
    UNION ALL SELECT format('%s ledger events', v_h.seq) WHERE v_h.seq > 0) x;
  IF v_what IS NOT NULL THEN
    RAISE EXCEPTION 'org % is not empty (it holds %): an export is imported into an empty org only; give an org id no org has (the import makes the org; the exported org''s own id keeps its identity)', p_org, v_what
      USING ERRCODE = 'CN409';
  END IF;
  DELETE FROM import_staging WHERE org_id = p_org;
  IF v_made THEN
    INSERT INTO import_staging (org_id, part, n, row) VALUES (p_org, 'org', 0, '{"made": true}');
  END IF;
  UPDATE ledger_heads SET chain_id = nullif(p_chain, p_org), importing = true WHERE org_id = p_org;
  RETURN jsonb_build_object('org', (SELECT jsonb_build_object('id', id, 'name', name) FROM orgs WHERE id = p_org),
    'made', v_made);
END $function$;
