CREATE TABLE "import_staging" (
	"org_id" uuid NOT NULL,
	"part" text NOT NULL,
	"n" bigint NOT NULL,
	"row" jsonb NOT NULL,
	CONSTRAINT "import_staging_org_id_part_n_pk" PRIMARY KEY("org_id","part","n")
);
--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD COLUMN "chain_id" uuid;--> statement-breakpoint
ALTER TABLE "ledger_heads" ADD COLUMN "importing" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "import_staging" ADD CONSTRAINT "import_staging_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- Export and import (docs/design.md): an imported org's chain keeps the id it was started under;
-- an import stages its events and projects until its last statement.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, DELETE ON import_staging TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE import_staging ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE import_staging FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY import_staging_isolation ON import_staging USING (org_id = cairn_org());
