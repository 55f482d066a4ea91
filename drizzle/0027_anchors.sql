ALTER TABLE "entries" ADD COLUMN "paths" text[];--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "commit" text;--> statement-breakpoint
ALTER TABLE "entries" ADD COLUMN "confirmed_at" timestamp with time zone;