--> after-functions
-- The brief's cue (sql/tools/cairn_brief_cue.sql) no longer takes for a failure a report that
-- opens with what went well ("CI green on main: … (1 flaky: …)", "CI on main green: …, Error Prone
-- clean") nor one whose failure word a "no" denies with a word between ("no new crashes"). The
-- partial indexes built on the cue (drizzle/0017) hold the rows the old one chose: rebuilt with the
-- function as it is now.
REINDEX INDEX entries_brief_project_idx;
REINDEX INDEX entries_brief_shared_idx;
REINDEX INDEX entries_brief_private_idx;
