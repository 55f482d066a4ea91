ALTER TABLE "ledger" ADD COLUMN "actor_kind" text;--> statement-breakpoint
ALTER TABLE "ledger_pending" ADD COLUMN "actor_kind" text;