CREATE TABLE "entry_stats" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"docs" bigint NOT NULL,
	"lexemes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "term_stats" (
	"org_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"df" integer NOT NULL,
	CONSTRAINT "term_stats_org_id_lexeme_pk" PRIMARY KEY("org_id","lexeme")
);
--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "idents" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "entry_stats" ADD CONSTRAINT "entry_stats_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_stats" ADD CONSTRAINT "term_stats_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "entries_idents_idx" ON "entries" USING gin ("idents");