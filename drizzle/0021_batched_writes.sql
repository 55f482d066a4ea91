CREATE TABLE "ledger_pending" (
	"org_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "ledger_pending_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"at" timestamp with time zone NOT NULL,
	"agent" text NOT NULL,
	"op" text NOT NULL,
	"entry_id" uuid,
	"project" text,
	"content_sha256" text,
	"reason" text,
	"verified" boolean NOT NULL,
	"private" boolean NOT NULL,
	CONSTRAINT "ledger_pending_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "stat_pending" (
	"org_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "stat_pending_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sign" integer NOT NULL,
	"terms" text[] NOT NULL,
	"length" integer NOT NULL,
	"scope" text NOT NULL,
	"project_key" text NOT NULL,
	"agent_key" text NOT NULL,
	"kind" text NOT NULL,
	CONSTRAINT "stat_pending_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
CREATE TABLE "usage_pending" (
	"org_id" uuid NOT NULL,
	"id" bigint GENERATED ALWAYS AS IDENTITY (sequence name "usage_pending_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"day" date NOT NULL,
	"calls" integer NOT NULL,
	"bytes" bigint NOT NULL,
	CONSTRAINT "usage_pending_org_id_id_pk" PRIMARY KEY("org_id","id")
);
--> statement-breakpoint
ALTER TABLE "ledger_pending" ADD CONSTRAINT "ledger_pending_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stat_pending" ADD CONSTRAINT "stat_pending_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_pending" ADD CONSTRAINT "usage_pending_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Writes of one org no longer meet on shared rows (docs/design.md, "One org under many writers"):
-- each leaves its ledger event, its entry's statistics and counts, and (on a plan without such a
-- quota) its usage as rows of its own, and cairn_org_seal folds them in batches under the org's
-- advisory lock. Entries are counted by cairn_entry_index now, with their statistics.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, DELETE ON ledger_pending, stat_pending, usage_pending TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE ledger_pending ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE ledger_pending FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY ledger_pending_isolation ON ledger_pending USING (org_id = cairn_org() OR cairn_operator());
--> statement-breakpoint
ALTER TABLE stat_pending ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE stat_pending FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY stat_pending_isolation ON stat_pending USING (org_id = cairn_org() OR cairn_operator());
--> statement-breakpoint
ALTER TABLE usage_pending ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE usage_pending FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY usage_pending_isolation ON usage_pending USING (org_id = cairn_org() OR cairn_operator());
--> statement-breakpoint
DROP TRIGGER IF EXISTS entries_count_insert ON entries;
--> statement-breakpoint
DROP TRIGGER IF EXISTS entries_count_delete ON entries;
--> statement-breakpoint
DROP TRIGGER IF EXISTS entries_count_move ON entries;
--> statement-breakpoint
DROP FUNCTION IF EXISTS cairn_entry_count();
--> statement-breakpoint
-- cairn_ledger_append returns nothing now (an event's number is known when it is sealed)
DROP FUNCTION IF EXISTS cairn_ledger_append(uuid, text, text, uuid, text, text, text, boolean);
