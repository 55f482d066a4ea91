ALTER TABLE "entries" ALTER COLUMN "search" DROP EXPRESSION;--> statement-breakpoint
-- Recall reads tags, source and the parts of identifiers too: entries.search is kept by a trigger
-- (sql/recall/cairn_entry_search.sql) instead of a generated expression, and the index keys take
-- the whole text (cairn_entry_keys changes signature; its file makes the new one).
DROP FUNCTION cairn_entry_keys(tsvector, text, text, text);
--> statement-breakpoint
-- A score counts each concept of the query once (cairn_recall_score takes the terms' concepts).
DROP FUNCTION cairn_recall_score(uuid, uuid, tsvector, tsquery[], double precision[], text[], double precision);
--> after-functions
-- Every org's search vectors and recall index, recomputed with the new definitions. Row security
-- binds the table owner too, so each org's rows are reached by setting that org.
DO $$
DECLARE
  v_org uuid;
BEGIN
  ALTER TABLE entries DISABLE TRIGGER entries_index_update;
  ALTER TABLE entries DISABLE TRIGGER entries_bytes_update;
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    UPDATE entries SET search = cairn_entry_vector(kind, title, content, rationale, source, tags)
      WHERE org_id = v_org;
    PERFORM cairn_rebuild_recall_index(v_org);
  END LOOP;
  PERFORM set_config('cairn.operator', '', true);
  PERFORM set_config('cairn.org', '', true);
  ALTER TABLE entries ENABLE TRIGGER entries_index_update;
  ALTER TABLE entries ENABLE TRIGGER entries_bytes_update;
END $$;
