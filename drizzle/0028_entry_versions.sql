CREATE TABLE "entry_versions" (
	"org_id" uuid NOT NULL,
	"entry_id" uuid NOT NULL,
	"version" integer NOT NULL,
	"title" text,
	"status" text,
	"steps" jsonb,
	"content" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text,
	CONSTRAINT "entry_versions_org_id_entry_id_version_pk" PRIMARY KEY("org_id","entry_id","version")
);
--> statement-breakpoint
ALTER TABLE "entry_versions" ADD CONSTRAINT "entry_versions_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- A plan's earlier versions, kept as it is updated (sql/entries/cairn_entry_version.sql), for
-- recall as of a time. Versions replaced before this release were not kept.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, DELETE ON entry_versions TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE entry_versions ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE entry_versions FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY entry_versions_isolation ON entry_versions USING (org_id = cairn_org());
