-- Appends an event to the org's hash-chained ledger: the head row is locked, so an org's events
-- are numbered without gaps; each hash covers the previous hash and the event's canonical form.
-- The agent's activity (events, first and last) is counted on the way (space view agents).
-- verified: the statement's agent came from its credential (cairn_agent sets cairn.verified); the
-- canonical form then ends with the field `verified`, so an event hashed before the flag existed,
-- or one not verified, keeps the form it had. p_private: the event is about an entry or artifact
-- private to p_agent, which other agents' ledger views leave out (not hashed: it says who sees
-- the event, not what happened).
CREATE OR REPLACE FUNCTION public.cairn_ledger_append(p_org uuid, p_agent text, p_op text, p_entry uuid, p_project text, p_sha text, p_reason text, p_private boolean)
 RETURNS bigint
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_seq bigint;
  v_prev text;
  v_at timestamptz;
  v_hash text;
  v_verified boolean := coalesce(current_setting('cairn.verified', true), '') = 'on';
BEGIN
  SELECT seq, hash INTO v_seq, v_prev FROM ledger_heads WHERE org_id = p_org FOR UPDATE;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'ledger head missing for org' USING ERRCODE = 'XX000';
  END IF;
  v_seq := v_seq + 1;
  v_at := date_trunc('milliseconds', clock_timestamp());
  v_hash := cairn_sha256(v_prev || cairn_ledger_canonical(
    v_seq, p_org, v_at, p_agent, p_op, p_entry, p_project, p_sha, p_reason)
    || CASE WHEN v_verified THEN '8:verified' ELSE '' END);
  INSERT INTO ledger (org_id, seq, at, agent, op, entry_id, project, content_sha256, reason, verified,
      private, prev_hash, hash)
    VALUES (p_org, v_seq, v_at, p_agent, p_op, p_entry, p_project, p_sha, p_reason, v_verified,
      p_private, v_prev, v_hash);
  UPDATE ledger_heads SET seq = v_seq, hash = v_hash WHERE org_id = p_org;
  INSERT INTO agent_activity AS a (org_id, agent, events, first_at, last_at)
    VALUES (p_org, p_agent, 1, v_at, v_at)
    ON CONFLICT (org_id, agent) DO UPDATE SET events = a.events + 1, last_at = EXCLUDED.last_at;
  RETURN v_seq;
END $function$;
