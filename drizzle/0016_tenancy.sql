ALTER TABLE "api_keys" ADD COLUMN "agent" text;--> statement-breakpoint
ALTER TABLE "ledger" ADD COLUMN "verified" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- forget removes what the forgotten rows alone left behind: counts at zero, projects no entry or
-- artifact is in any more (sql/tools/cairn_forget_for.sql)
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT DELETE ON scope_counts, projects TO cairn_app';
  END IF;
END $$;
--> after-functions
-- Stored bytes now count every field an entry or artifact stores (cairn_entry_bytes,
-- cairn_artifact_bytes), not the content alone: each org's figure is counted again from its rows,
-- so that what a forget frees matches what the write added. Words and counts that earlier
-- forgets left at zero go (cairn_entry_index and cairn_forget_for now remove them). Row security
-- binds the table owner too, so each org's rows are reached by setting that org.
DO $$
DECLARE
  v_org uuid;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    UPDATE org_usage SET stored_bytes =
      (SELECT coalesce(sum(cairn_entry_bytes(e)), 0) FROM entries e WHERE e.org_id = v_org)
      + (SELECT coalesce(sum(cairn_artifact_bytes(a)), 0) FROM artifacts a WHERE a.org_id = v_org)
      WHERE org_id = v_org;
    DELETE FROM term_stats WHERE org_id = v_org AND df <= 0;
    DELETE FROM scope_counts WHERE org_id = v_org AND n <= 0;
  END LOOP;
  PERFORM set_config('cairn.operator', '', true);
  PERFORM set_config('cairn.org', '', true);
END $$;
