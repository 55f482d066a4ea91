-- Operator: the ledger head of an org an import has begun on (cairn_admin_import_begin), locked
-- for the statement, with the statement pinned to the org as its operator; refuses an org no
-- import is running on. What cairn_admin_import_rows and cairn_admin_import_end start with.
CREATE OR REPLACE FUNCTION public.cairn_admin_import_head(p_org uuid)
 RETURNS ledger_heads
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_h ledger_heads;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  PERFORM set_config('cairn.operator', 'on', true);
  SELECT * INTO v_h FROM ledger_heads WHERE org_id = p_org FOR UPDATE;
  IF NOT coalesce(v_h.importing, false) THEN
    RAISE EXCEPTION 'org %: no import has begun on it', p_org USING ERRCODE = 'CN409';
  END IF;
  RETURN v_h;
END $function$;
