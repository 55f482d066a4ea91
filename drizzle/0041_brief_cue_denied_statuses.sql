--> after-functions
-- The brief's cue (sql/tools/cairn_brief_cue.sql) takes an HTTP status a count or "no" denies for no
-- failure, as it does a failure word ("no 5xx during the drain", "no 504s"). The partial indexes
-- built on the cue (drizzle/0017) hold the rows the old one chose: rebuilt with the function as it
-- is now.
REINDEX INDEX entries_brief_project_idx;
REINDEX INDEX entries_brief_shared_idx;
REINDEX INDEX entries_brief_private_idx;
