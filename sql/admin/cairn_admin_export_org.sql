-- Operator: what an export of an org starts with (docs/design.md, "Export and import"): the org,
-- the id its ledger's hashes cover, and the ledger's head once every write answered so far is
-- sealed; the export holds the events up to that head. p_private: the owner chose to export the
-- agents' private notes too; the choice is recorded in the ledger first (op `export`, by p_actor),
-- so the export carries its own record. Without it no event is written.
CREATE OR REPLACE FUNCTION public.cairn_admin_export_org(p_org uuid, p_private boolean, p_actor text)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET timezone TO 'UTC'
AS $function$
DECLARE
  v_o orgs;
  v_h ledger_heads;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  PERFORM set_config('cairn.operator', 'on', true);
  SELECT * INTO v_o FROM orgs WHERE id = p_org;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  IF p_private THEN
    PERFORM cairn_ledger_append(p_org, p_actor, 'export', NULL, NULL, NULL,
      'with the agents'' private notes, by the owner''s choice', false);
  END IF;
  PERFORM cairn_org_seal(p_org, true);
  SELECT * INTO v_h FROM ledger_heads WHERE org_id = p_org;
  IF v_h.importing THEN
    RAISE EXCEPTION 'org % is being imported; export it once the import has ended', p_org USING ERRCODE = 'CN409';
  END IF;
  RETURN jsonb_build_object(
    'org', jsonb_build_object('id', v_o.id, 'name', v_o.name, 'created_at', v_o.created_at),
    'chain_id', coalesce(v_h.chain_id, p_org),
    'head', jsonb_build_object('seq', v_h.seq, 'hash', v_h.hash));
END $function$;
