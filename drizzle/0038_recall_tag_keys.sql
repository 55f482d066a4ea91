--> after-functions
-- Recall's index files each entry under its tags too ('@t:' and the tag in lower case:
-- sql/recall/cairn_tag_keys.sql), for context by reference (sql/recall/cairn_recall_for.sql); the
-- entries written before are filed here. Row security binds the table owner too, so each org's
-- rows are reached by setting that org.
DO $$
DECLARE
  v_org uuid;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM set_config('cairn.org', v_org::text, true);
    INSERT INTO postings (org_id, lexeme, project, entry_id)
      SELECT DISTINCT v_org, k, cairn_posting_key(e.scope, e.project, e.agent), e.id
      FROM entries e, unnest(cairn_tag_keys(e.tags)) AS k
      WHERE e.org_id = v_org
      ORDER BY 2, 3, 4
      ON CONFLICT DO NOTHING;
  END LOOP;
  PERFORM set_config('cairn.org', '', true);
  PERFORM set_config('cairn.operator', '', true);
END $$;
