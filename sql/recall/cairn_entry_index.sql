-- Row trigger on entries: keeps recall's index in step with each entry (its postings, keys from
-- cairn_entry_keys, its anchors' keys, cairn_path_keys, and its tags', cairn_tag_keys; filed under
-- cairn_posting_key) and leaves the entry's share of the org's statistics (BM25's df, N and
-- average length) and of `space`'s counts (entries per scope, project, private agent and kind) to
-- be folded by cairn_org_seal: a row of its own in stat_pending, counted in (1) or out (-1), so
-- that writers of one org share no row here. An update counts the old row out and the new one in,
-- when its text or where it is counted changes.
CREATE OR REPLACE FUNCTION public.cairn_entry_index()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM postings WHERE org_id = OLD.org_id AND project = cairn_posting_key(OLD.scope, OLD.project, OLD.agent)
      AND entry_id = OLD.id
      AND lexeme = ANY(cairn_entry_keys(OLD.search, cairn_entry_text(OLD.title, OLD.content, OLD.rationale, OLD.source, OLD.tags))
        || cairn_path_keys(OLD.paths) || cairn_tag_keys(OLD.tags));
    INSERT INTO stat_pending (org_id, sign, terms, length, scope, project_key, agent_key, kind)
      VALUES (OLD.org_id, -1, tsvector_to_array(OLD.search), length(OLD.search), OLD.scope,
        coalesce(OLD.project, ''), CASE WHEN OLD.scope = 'agent' THEN OLD.agent ELSE '' END, OLD.kind);
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO postings (org_id, lexeme, project, entry_id)
      SELECT NEW.org_id, k, cairn_posting_key(NEW.scope, NEW.project, NEW.agent), NEW.id
      FROM unnest(cairn_entry_keys(NEW.search, cairn_entry_text(NEW.title, NEW.content, NEW.rationale, NEW.source, NEW.tags))
        || cairn_path_keys(NEW.paths) || cairn_tag_keys(NEW.tags)) AS k
      ON CONFLICT DO NOTHING;
    INSERT INTO stat_pending (org_id, sign, terms, length, scope, project_key, agent_key, kind)
      VALUES (NEW.org_id, 1, tsvector_to_array(NEW.search), length(NEW.search), NEW.scope,
        coalesce(NEW.project, ''), CASE WHEN NEW.scope = 'agent' THEN NEW.agent ELSE '' END, NEW.kind);
  END IF;
  RETURN NULL;
END $function$;

CREATE OR REPLACE TRIGGER entries_index_insert_delete AFTER INSERT OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION cairn_entry_index();
CREATE OR REPLACE TRIGGER entries_index_update AFTER UPDATE ON entries
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search OR OLD.scope IS DISTINCT FROM NEW.scope
    OR OLD.project IS DISTINCT FROM NEW.project OR OLD.agent IS DISTINCT FROM NEW.agent
    OR OLD.kind IS DISTINCT FROM NEW.kind OR OLD.paths IS DISTINCT FROM NEW.paths
    OR OLD.tags IS DISTINCT FROM NEW.tags)
  EXECUTE FUNCTION cairn_entry_index();
