-- Appends an event to the org's hash-chained ledger: the event is left pending and the org's seal
-- is tried at once (cairn_org_seal), which numbers it without gaps and chains its hash — at once
-- when no other statement of the org is sealing, else in that statement's next batch. Each hash
-- covers the previous hash and the event's canonical form; the agent's activity (events, first
-- and last) is counted as it is sealed (space view agents).
-- verified: the statement's agent came from its credential (cairn_agent sets cairn.verified); the
-- canonical form then ends with the field `verified`, so an event hashed before the flag existed,
-- or one not verified, keeps the form it had. p_private: the event is about an entry or artifact
-- private to p_agent, which other agents' ledger views leave out (not hashed: it says who sees
-- the event, not what happened). Who acted (ledger.actor_kind, hashed): 'agent' when the statement
-- resolved a tool call's agent (cairn_agent), 'member' when it acts for a dashboard session
-- (cairn_dash_actor), else 'operator' (the CLI, /admin, first start). While an import loads the
-- org (cairn_admin_import_begin), its writes are refused: they would land in an org whose memory
-- is not all there yet.
CREATE OR REPLACE FUNCTION public.cairn_ledger_append(p_org uuid, p_agent text, p_op text, p_entry uuid, p_project text, p_sha text, p_reason text, p_private boolean)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF EXISTS (SELECT 1 FROM ledger_heads WHERE org_id = p_org AND importing) THEN
    RAISE EXCEPTION 'this org is being imported (cairn import); its writes resume when the import ends, retry in a minute'
      USING ERRCODE = 'CN503';
  END IF;
  INSERT INTO ledger_pending (org_id, at, agent, op, entry_id, project, content_sha256, reason, verified, private,
      actor_kind)
    VALUES (p_org, date_trunc('milliseconds', clock_timestamp()), p_agent, p_op, p_entry, p_project, p_sha,
      p_reason, coalesce(current_setting('cairn.verified', true), '') = 'on', p_private,
      coalesce(nullif(current_setting('cairn.actor_kind', true), ''), 'operator'));
  PERFORM cairn_org_seal(p_org, false);
END $function$;
