-- Scoped supersession (contract §4; docs/design.md, "Supersession"): a project entry may replace an
-- org entry for its project only. The org entry keeps no superseded_by; superseded_in maps each
-- project that replaced it to the replacement's id, read by cairn_recall_visible as one more
-- column of the row (no look-up, so the expression stays inlined in every recall statement).
ALTER TABLE "entries" ADD COLUMN "superseded_in" jsonb;--> statement-breakpoint
-- The short handle the brief shows and the tools accept in place of an entry's id: its last 8 hex
-- digits, random bits of the UUIDv7 (sql/entries/cairn_entry_ref.sql). A stored column, so that the
-- look-up is an equality the row-level security lets an index serve.
ALTER TABLE "entries" ADD COLUMN "handle" text GENERATED ALWAYS AS (right(id::text, 8)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "entries_org_handle_idx" ON "entries" USING btree ("org_id","handle");--> statement-breakpoint
-- history follows a project's replacement of an org entry: it takes the reader's project
DROP FUNCTION IF EXISTS cairn_history(uuid, text, uuid);
