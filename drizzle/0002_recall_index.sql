CREATE TABLE "entry_stats" (
	"org_id" uuid PRIMARY KEY NOT NULL,
	"docs" bigint NOT NULL,
	"lexemes" bigint NOT NULL
);
--> statement-breakpoint
CREATE TABLE "postings" (
	"org_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"project" text NOT NULL,
	"entry_id" uuid NOT NULL,
	CONSTRAINT "postings_org_id_lexeme_project_entry_id_pk" PRIMARY KEY("org_id","lexeme","project","entry_id")
);
--> statement-breakpoint
CREATE TABLE "term_stats" (
	"org_id" uuid NOT NULL,
	"lexeme" text NOT NULL,
	"df" integer NOT NULL,
	CONSTRAINT "term_stats_org_id_lexeme_pk" PRIMARY KEY("org_id","lexeme")
);
--> statement-breakpoint
DROP INDEX "entries_search_idx";--> statement-breakpoint
ALTER TABLE "entry_stats" ADD CONSTRAINT "entry_stats_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "postings" ADD CONSTRAINT "postings_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "term_stats" ADD CONSTRAINT "term_stats_org_id_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."orgs"("id") ON DELETE cascade ON UPDATE no action;