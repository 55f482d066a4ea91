-- The brief reads each kind's qualifying entries straight off partial indexes whose predicate is
-- cairn_brief_cue (sql/tools/cairn_brief_cue.sql), which the function files define: the indexes
-- are made after them. Before, a brief walked every entry of a kind until enough qualified: at
-- 1M entries, 190 ms of database time per brief.
SELECT 1;
--> after-functions
CREATE INDEX IF NOT EXISTS entries_brief_project_idx ON entries (org_id, kind, project_key, created_at)
  WHERE scope <> 'agent' AND superseded_by IS NULL AND cairn_brief_cue(kind, status, tags, content);
CREATE INDEX IF NOT EXISTS entries_brief_shared_idx ON entries (org_id, kind, created_at)
  WHERE scope <> 'agent' AND superseded_by IS NULL AND cairn_brief_cue(kind, status, tags, content);
CREATE INDEX IF NOT EXISTS entries_brief_private_idx ON entries (org_id, agent, kind, created_at)
  WHERE scope = 'agent' AND superseded_by IS NULL AND cairn_brief_cue(kind, status, tags, content);
