-- The upkeep's sweep (src/storage/pg/maintain.ts): folds what writes left pending in every org
-- that has some (cairn_org_seal), for an org whose last writes met a sealer already at work and
-- that no call has read or written since. Without waiting: an org being sealed is left to its
-- sealer. Returns the number of orgs folded.
CREATE OR REPLACE FUNCTION public.cairn_seal_pending()
 RETURNS integer
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid;
  v_n integer := 0;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT org_id FROM ledger_pending UNION SELECT org_id FROM stat_pending
      UNION SELECT org_id FROM usage_pending LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    IF cairn_org_seal(v_org, false) THEN
      v_n := v_n + 1;
    END IF;
  END LOOP;
  PERFORM set_config('cairn.org', '', true);
  PERFORM set_config('cairn.operator', '', true);
  RETURN v_n;
END $function$;
