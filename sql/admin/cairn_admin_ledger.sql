-- A page of an org's ledger, in order, for the verifier.
CREATE OR REPLACE FUNCTION public.cairn_admin_ledger(p_org uuid, p_after bigint, p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_events jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  -- every write answered so far is in the ledger (cairn_org_seal)
  PERFORM cairn_org_seal(p_org, true);
  -- the verifier's page: with private events' salts, which no reader's view shows
  SELECT coalesce(jsonb_agg(cairn_event_json(l) || jsonb_build_object('salt', l.salt) ORDER BY l.seq), '[]'::jsonb)
    INTO v_events
    FROM (SELECT * FROM ledger WHERE org_id = p_org AND seq > p_after ORDER BY seq LIMIT p_limit) l;
  RETURN v_events;
END $function$;
