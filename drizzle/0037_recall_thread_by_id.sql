-- Recall walks a hit's thread of work in id order (sql/recall/cairn_recall_for.sql): the order the
-- service took the writes, which concurrent writes' transaction start times (created_at) do not keep.
CREATE INDEX "entries_org_id_idx" ON "entries" USING btree ("org_id","id");
