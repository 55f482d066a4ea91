-- Private means absent (docs/design.md): recall's statistics are kept per visibility — '' for the
-- entries shared in the org, an agent's name for its private ones — so a reader's document
-- frequencies, count and lengths are those of the entries it may read; an agent's private
-- entries are posted under a partition of their own (cairn_posting_key), so another reader's
-- candidates never meet them; each agent's activity is counted apart for its private events.
ALTER TABLE "term_stats" ADD COLUMN "agent_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "term_stats" DROP CONSTRAINT "term_stats_org_id_lexeme_pk";--> statement-breakpoint
ALTER TABLE "term_stats" ADD CONSTRAINT "term_stats_org_id_lexeme_agent_key_pk" PRIMARY KEY("org_id","lexeme","agent_key");--> statement-breakpoint
ALTER TABLE "entry_stats" ADD COLUMN "agent_key" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "entry_stats" DROP CONSTRAINT "entry_stats_pkey";--> statement-breakpoint
ALTER TABLE "entry_stats" ADD CONSTRAINT "entry_stats_org_id_agent_key_pk" PRIMARY KEY("org_id","agent_key");--> statement-breakpoint
ALTER TABLE "agent_activity" ADD COLUMN "private" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "agent_activity" DROP CONSTRAINT "agent_activity_org_id_agent_pk";--> statement-breakpoint
ALTER TABLE "agent_activity" ADD CONSTRAINT "agent_activity_org_id_agent_private_pk" PRIMARY KEY("org_id","agent","private");--> statement-breakpoint
-- an agent's statistics row goes with its last private entry (cairn_org_seal)
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT DELETE ON entry_stats TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
-- cairn_recall_terms takes the reader (its statistics are those the reader may see)
DROP FUNCTION IF EXISTS cairn_recall_terms(uuid, text, jsonb, double precision, integer);
--> after-functions
-- Every org again from its rows: what is pending sealed first, then private entries' postings
-- moved to their partitions, the statistics counted per visibility, and the activity per agent
-- and privacy from the ledger (its `private` flag, drizzle/0018).
DO $$
DECLARE
  v_org uuid;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    PERFORM cairn_org_seal(v_org, true);
    DELETE FROM stat_pending WHERE org_id = v_org;
    UPDATE postings p SET project = cairn_posting_key(e.scope, e.project, e.agent)
      FROM entries e
      WHERE e.org_id = v_org AND e.scope = 'agent' AND p.org_id = v_org AND p.entry_id = e.id
        AND p.project = coalesce(e.project, '');
    DELETE FROM term_stats WHERE org_id = v_org;
    INSERT INTO term_stats (org_id, lexeme, agent_key, df)
      SELECT v_org, l, CASE WHEN e.scope = 'agent' THEN e.agent ELSE '' END, count(*)
      FROM entries e, unnest(tsvector_to_array(e.search)) AS l
      WHERE e.org_id = v_org GROUP BY 2, 3;
    DELETE FROM entry_stats WHERE org_id = v_org;
    INSERT INTO entry_stats (org_id, agent_key, docs, lexemes)
      SELECT v_org, x.k, sum(x.docs), sum(x.lexemes) FROM (
        SELECT '' AS k, 0 AS docs, 0 AS lexemes
        UNION ALL
        SELECT CASE WHEN scope = 'agent' THEN agent ELSE '' END, 1, length(search)
        FROM entries WHERE org_id = v_org) x
      GROUP BY x.k;
    DELETE FROM agent_activity WHERE org_id = v_org;
    INSERT INTO agent_activity (org_id, agent, private, events, first_at, last_at)
      SELECT v_org, agent, private, count(*), min(at), max(at) FROM ledger WHERE org_id = v_org GROUP BY 2, 3;
  END LOOP;
  PERFORM set_config('cairn.org', '', true);
  PERFORM set_config('cairn.operator', '', true);
END $$;
