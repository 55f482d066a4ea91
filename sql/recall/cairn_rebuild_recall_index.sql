-- Recomputes an org's recall index and statistics from its entries (after a bulk load, or to repair).
CREATE OR REPLACE FUNCTION public.cairn_rebuild_recall_index(p_org uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  DELETE FROM postings WHERE org_id = p_org;
  INSERT INTO postings (org_id, lexeme, project, entry_id)
    SELECT DISTINCT p_org, k, cairn_posting_key(e.scope, e.project, e.agent), e.id
    FROM entries e, unnest(cairn_entry_keys(e.search, cairn_entry_text(e.title, e.content, e.rationale, e.source, e.tags))
      || cairn_path_keys(e.paths) || cairn_tag_keys(e.tags)) AS k
    WHERE e.org_id = p_org
    ORDER BY 2, 3, 4; -- in index order: the B-tree grows at its right edge
  PERFORM cairn_org_seal(p_org, true); -- what writes left pending is counted once, below
  DELETE FROM stat_pending WHERE org_id = p_org;
  DELETE FROM term_stats WHERE org_id = p_org;
  INSERT INTO term_stats (org_id, lexeme, agent_key, df)
    SELECT p_org, l, CASE WHEN e.scope = 'agent' THEN e.agent ELSE '' END, count(*)
    FROM entries e, unnest(tsvector_to_array(e.search)) AS l
    WHERE e.org_id = p_org GROUP BY 2, 3;
  -- per visibility: '' for the shared entries (a row even when there are none), each agent's private ones
  DELETE FROM entry_stats WHERE org_id = p_org;
  INSERT INTO entry_stats (org_id, agent_key, docs, lexemes)
    SELECT p_org, x.k, sum(x.docs), sum(x.lexemes) FROM (
      SELECT '' AS k, 0 AS docs, 0 AS lexemes
      UNION ALL
      SELECT CASE WHEN scope = 'agent' THEN agent ELSE '' END, 1, length(search)
      FROM entries WHERE org_id = p_org) x
    GROUP BY x.k;
END $function$;
