ALTER TABLE "entries" ADD COLUMN "updated_by" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "last_change" text;