-- Recomputes an org's recall index and statistics from its entries (after a bulk load, or to repair).
CREATE OR REPLACE FUNCTION public.cairn_rebuild_recall_index(p_org uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  DELETE FROM postings WHERE org_id = p_org;
  INSERT INTO postings (org_id, lexeme, project, entry_id)
    SELECT DISTINCT p_org, k, coalesce(e.project, ''), e.id
    FROM entries e, unnest(cairn_entry_keys(e.search, cairn_entry_text(e.title, e.content, e.rationale, e.source, e.tags))) AS k
    WHERE e.org_id = p_org
    ORDER BY 2, 3, 4; -- in index order: the B-tree grows at its right edge
  PERFORM cairn_org_seal(p_org, true); -- what writes left pending is counted once, below
  DELETE FROM stat_pending WHERE org_id = p_org;
  DELETE FROM term_stats WHERE org_id = p_org;
  INSERT INTO term_stats (org_id, lexeme, df)
    SELECT p_org, l, count(*) FROM entries e, unnest(tsvector_to_array(e.search)) AS l
    WHERE e.org_id = p_org GROUP BY l;
  INSERT INTO entry_stats (org_id, docs, lexemes)
    SELECT p_org, count(*), coalesce(sum(length(search)), 0) FROM entries WHERE org_id = p_org
    ON CONFLICT (org_id) DO UPDATE SET docs = excluded.docs, lexemes = excluded.lexemes;
END $function$;
