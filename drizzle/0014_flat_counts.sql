CREATE TABLE "agent_activity" (
	"org_id" uuid NOT NULL,
	"agent" text NOT NULL,
	"events" bigint NOT NULL,
	"first_at" timestamp with time zone NOT NULL,
	"last_at" timestamp with time zone NOT NULL,
	CONSTRAINT "agent_activity_org_id_agent_pk" PRIMARY KEY("org_id","agent")
);
--> statement-breakpoint
CREATE TABLE "scope_counts" (
	"org_id" uuid NOT NULL,
	"scope" text NOT NULL,
	"project_key" text NOT NULL,
	"agent_key" text NOT NULL,
	"kind" text NOT NULL,
	"n" bigint NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "scope_counts_org_id_scope_project_key_agent_key_kind_pk" PRIMARY KEY("org_id","scope","project_key","agent_key","kind")
);
--> statement-breakpoint
ALTER TABLE "agent_activity" ADD CONSTRAINT "agent_activity_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "scope_counts" ADD CONSTRAINT "scope_counts_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entries_org_expires_idx" ON "entries" USING btree ("org_id","expires_at") WHERE expires_at IS NOT NULL;--> statement-breakpoint
CREATE INDEX "ledger_org_agent_seq_idx" ON "ledger" USING btree ("org_id","agent","seq");--> statement-breakpoint
CREATE INDEX "ledger_org_at_idx" ON "ledger" USING btree ("org_id","at");--> statement-breakpoint
-- Counts kept as rows change (scope_counts: entries per kind and artifacts per scope, project and
-- private agent; agent_activity: each agent's ledger events), so that `space` reads no more than
-- the org's projects and agents; the triggers live in sql/entries/cairn_entry_count.sql and
-- cairn_artifact_count.sql, the agent's row in cairn_ledger_append.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE ON scope_counts, agent_activity TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE scope_counts ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE scope_counts FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY scope_counts_isolation ON scope_counts USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE agent_activity ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE agent_activity FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY agent_activity_isolation ON agent_activity USING (org_id = cairn_org());
--> after-functions
-- Every org's counts from its rows as they are. Row security binds the table owner too, so each
-- org's rows are reached by setting that org.
DO $$
DECLARE
  v_org uuid;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    INSERT INTO scope_counts (org_id, scope, project_key, agent_key, kind, n, bytes)
      SELECT org_id, scope, project_key, CASE WHEN scope = 'agent' THEN agent ELSE '' END, kind, count(*), 0
      FROM entries WHERE org_id = v_org GROUP BY 1, 2, 3, 4, 5
      UNION ALL
      SELECT org_id, scope, coalesce(project, ''), CASE WHEN scope = 'agent' THEN agent ELSE '' END,
        'artifact', count(*), sum(size)
      FROM artifacts WHERE org_id = v_org GROUP BY 1, 2, 3, 4, 5;
    INSERT INTO agent_activity (org_id, agent, events, first_at, last_at)
      SELECT org_id, agent, count(*), min(at), max(at) FROM ledger WHERE org_id = v_org GROUP BY 1, 2;
  END LOOP;
  PERFORM set_config('cairn.operator', '', true);
  PERFORM set_config('cairn.org', '', true);
END $$;
