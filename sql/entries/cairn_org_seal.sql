-- Folds what an org's writes left pending (docs/design.md, "One org under many writers"), under
-- the org's seal lock (a transaction-level advisory lock): the ledger events, numbered and
-- hash-chained in the order they were written; each agent's activity; recall's statistics (the
-- org's document count and length, each word's document frequency) and the entry counts of
-- `space`; and the calls and bytes of a plan without such a quota. A write asks without waiting
-- (p_wait false): when another statement of the org holds the lock, its rows wait for the next
-- holder; so one lock and one commit serve a batch of writes, and no write of the org waits for
-- another's. A reader of the ledger, counts or usage waits (p_wait true), so it sees every write
-- answered before it. Hashes (cairn_ledger_hash) cover the head's chain id (the org's own id
-- unless it was imported from another install). Returns whether it folded (it held the lock).
CREATE OR REPLACE FUNCTION public.cairn_org_seal(p_org uuid, p_wait boolean)
 RETURNS boolean
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_events ledger_pending[];
  v_stats stat_pending[];
  e ledger_pending;
  v_seq bigint;
  v_prev text;
  v_last timestamptz;
  v_at timestamptz;
  v_ats timestamptz[] := '{}';
  v_ev ledger;
  v_chain uuid;
  v_month date := cairn_month_start(clock_timestamp());
  v_calls bigint;
  v_days date[];
  v_day_calls bigint[];
  v_bytes bigint;
BEGIN
  -- a reader waits only when a write is pending (rows being folded by a holder still count, so it
  -- waits for that holder's commit): with none, readers of one org do not queue on the lock. The
  -- calls of reads in flight are not waited for (usage may lag by them; a write's never does)
  IF p_wait AND NOT EXISTS (SELECT 1 FROM ledger_pending WHERE org_id = p_org)
      AND NOT EXISTS (SELECT 1 FROM stat_pending WHERE org_id = p_org) THEN
    RETURN false;
  END IF;
  -- the key's first half names the lock's purpose (distinct from the upkeep's one-key lock)
  IF p_wait THEN
    PERFORM pg_advisory_xact_lock(1128878670, hashtext(p_org::text));
  ELSIF NOT pg_try_advisory_xact_lock(1128878670, hashtext(p_org::text)) THEN
    RETURN false;
  END IF;

  WITH d AS (DELETE FROM ledger_pending WHERE org_id = p_org RETURNING *)
  SELECT array_agg(d ORDER BY d.id) INTO v_events FROM d;
  IF v_events IS NOT NULL THEN
    SELECT h.seq, h.hash, l.at, coalesce(h.chain_id, p_org) INTO v_seq, v_prev, v_last, v_chain
      FROM ledger_heads h LEFT JOIN ledger l ON l.org_id = h.org_id AND l.seq = h.seq
      WHERE h.org_id = p_org;
    IF v_seq IS NULL THEN
      RAISE EXCEPTION 'ledger head missing for org' USING ERRCODE = 'XX000';
    END IF;
    FOREACH e IN ARRAY v_events LOOP
      v_seq := v_seq + 1;
      -- events are in time order along the chain: one written earlier but sealed later takes the
      -- time of the event before it
      v_at := greatest(e.at, v_last);
      v_ev := NULL;
      v_ev.org_id := p_org;
      v_ev.seq := v_seq;
      v_ev.at := v_at;
      v_ev.agent := e.agent;
      v_ev.op := e.op;
      v_ev.entry_id := e.entry_id;
      v_ev.project := e.project;
      v_ev.content_sha256 := e.content_sha256;
      v_ev.reason := e.reason;
      v_ev.verified := e.verified;
      v_ev.private := e.private;
      v_ev.actor_kind := e.actor_kind;
      -- a private event's hash covers a secret no reader sees (ledger.salt): the hashes readers
      -- see after it cannot confirm a guess of the hidden note (docs/design.md, "Who can do what")
      v_ev.salt := CASE WHEN e.private THEN replace(gen_random_uuid()::text, '-', '') END;
      v_ev.prev_hash := v_prev;
      v_ev.hash := cairn_ledger_hash(v_prev, v_chain, v_ev);
      INSERT INTO ledger SELECT (v_ev).*;
      v_prev := v_ev.hash;
      v_last := v_at;
      v_ats := v_ats || v_at;
    END LOOP;
    UPDATE ledger_heads SET seq = v_seq, hash = v_prev WHERE org_id = p_org;
    INSERT INTO agent_activity AS a (org_id, agent, private, events, first_at, last_at)
      SELECT p_org, x.agent, x.private, count(*), min(t.at), max(t.at)
      FROM unnest(v_events) WITH ORDINALITY x JOIN unnest(v_ats) WITH ORDINALITY t(at, n) ON t.n = x.ordinality
      -- agents only: a member's or an operator's actions are not an agent's activity
      WHERE coalesce(x.actor_kind, 'agent') = 'agent'
      GROUP BY x.agent, x.private ORDER BY x.agent, x.private
      ON CONFLICT (org_id, agent, private) DO UPDATE SET events = a.events + excluded.events,
        last_at = greatest(a.last_at, excluded.last_at);
  END IF;

  WITH d AS (DELETE FROM stat_pending WHERE org_id = p_org RETURNING *)
  SELECT array_agg(d) INTO v_stats FROM d;
  IF v_stats IS NOT NULL THEN
    -- per visibility: the shared entries ('') and each agent's private ones (its agent_key)
    INSERT INTO entry_stats AS s (org_id, agent_key, docs, lexemes)
      SELECT p_org, x.agent_key, sum(x.sign), sum(x.sign * x.length) FROM unnest(v_stats) x
      GROUP BY x.agent_key ORDER BY x.agent_key
      ON CONFLICT (org_id, agent_key) DO UPDATE SET docs = s.docs + excluded.docs, lexemes = s.lexemes + excluded.lexemes;
    INSERT INTO term_stats AS t (org_id, lexeme, agent_key, df)
      SELECT p_org, l, x.agent_key, sum(x.sign) FROM unnest(v_stats) x, unnest(x.terms) l
      GROUP BY l, x.agent_key HAVING sum(x.sign) <> 0 ORDER BY l, x.agent_key
      ON CONFLICT (org_id, lexeme, agent_key) DO UPDATE SET df = t.df + excluded.df;
    INSERT INTO scope_counts AS c (org_id, scope, project_key, agent_key, kind, n, bytes)
      SELECT p_org, x.scope, x.project_key, x.agent_key, x.kind, sum(x.sign), 0 FROM unnest(v_stats) x
      GROUP BY 2, 3, 4, 5 HAVING sum(x.sign) <> 0 ORDER BY 2, 3, 4, 5
      ON CONFLICT (org_id, scope, project_key, agent_key, kind) DO UPDATE SET n = c.n + excluded.n;
    IF EXISTS (SELECT 1 FROM unnest(v_stats) x WHERE x.sign < 0) THEN
      -- a word no entry holds any more goes, and so does a count that fell to nothing (it names a
      -- project and, for private entries, an agent): a forgotten entry leaves none of them behind
      DELETE FROM term_stats WHERE org_id = p_org AND df <= 0
        AND lexeme IN (SELECT l FROM unnest(v_stats) x, unnest(x.terms) l WHERE x.sign < 0);
      DELETE FROM entry_stats WHERE org_id = p_org AND agent_key <> '' AND docs <= 0;
      DELETE FROM scope_counts WHERE org_id = p_org AND n <= 0;
    END IF;
  END IF;

  IF EXISTS (SELECT 1 FROM usage_pending WHERE org_id = p_org) THEN
    WITH d AS (DELETE FROM usage_pending WHERE org_id = p_org RETURNING day, calls, bytes)
    SELECT array_agg(x.day ORDER BY x.day), array_agg(x.calls ORDER BY x.day),
        coalesce(sum(x.calls) FILTER (WHERE x.day >= v_month), 0), sum(x.bytes)
      INTO v_days, v_day_calls, v_calls, v_bytes
      FROM (SELECT d.day, sum(d.calls) AS calls, sum(d.bytes) AS bytes FROM d GROUP BY d.day) x;
    UPDATE org_usage u SET stored_bytes = u.stored_bytes + v_bytes,
        month_calls = CASE WHEN u.month = v_month THEN u.month_calls + v_calls ELSE v_calls END,
        month = v_month
      WHERE u.org_id = p_org
      RETURNING u.stored_bytes INTO v_bytes;
    INSERT INTO usage_days AS u (org_id, day, calls, stored_bytes)
      SELECT p_org, x.day, x.calls, v_bytes FROM unnest(v_days, v_day_calls) AS x(day, calls)
      WHERE x.calls > 0
      ON CONFLICT (org_id, day) DO UPDATE SET calls = u.calls + excluded.calls, stored_bytes = excluded.stored_bytes;
  END IF;
  RETURN true;
END $function$;
