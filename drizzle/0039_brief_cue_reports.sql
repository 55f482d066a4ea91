--> after-functions
-- The brief's cue (sql/tools/cairn_brief_cue.sql) no longer takes a report of what went well for a
-- failure ("0 errors", "no crashes", "crash-free", "512 tests green": a failure word a count or "no"
-- denies, or a number from 500 to 599 that is no HTTP status), and takes a timeout inside an
-- identifier, an HTTP status written as one and a printed exception. The partial indexes built on
-- the cue (drizzle/0017) hold the rows the old one chose: rebuilt with the function as it is now.
REINDEX INDEX entries_brief_project_idx;
REINDEX INDEX entries_brief_shared_idx;
REINDEX INDEX entries_brief_private_idx;
