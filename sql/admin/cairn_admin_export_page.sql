-- Operator: one page of an org's export, in a stable order after p_after (the previous page's
-- last key): `project` by canonical id, `entry` by id, `version` (a plan's kept versions) by entry
-- and version ('<entry id> <version>'), `artifact` by id (with its blob key, for the bytes), and
-- `event` by seq up to p_head (the head the export started from). Rows are as stored, without
-- the org id and what is derived from other columns (the project key, the search vector, the
-- handle, and the projects that replaced an org entry, which the import finds from their entries).
-- Without p_private, private (`agent` scope) entries, their versions and private artifacts are
-- left out, and a private event is sealed: its seq and hashes only, so the chain still verifies
-- and nothing of the note shows (docs/design.md, "Export and import"). Times are UTC.
CREATE OR REPLACE FUNCTION public.cairn_admin_export_page(p_org uuid, p_part text, p_after text, p_limit integer, p_private boolean, p_head bigint)
 RETURNS jsonb
 LANGUAGE plpgsql
 SET timezone TO 'UTC'
 SET jit TO 'off'
AS $function$
DECLARE
  v_rows jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  PERFORM set_config('cairn.operator', 'on', true);
  CASE p_part
  WHEN 'project' THEN
    SELECT jsonb_agg(to_jsonb(p) - 'org_id' ORDER BY p.canonical) INTO v_rows
      FROM (SELECT * FROM projects WHERE org_id = p_org AND canonical > coalesce(p_after, '')
        ORDER BY canonical LIMIT p_limit) p;
  WHEN 'entry' THEN
    SELECT jsonb_agg(to_jsonb(e) - 'org_id' - 'project_key' - 'search' - 'handle' - 'superseded_in' ORDER BY e.id) INTO v_rows
      FROM (SELECT * FROM entries WHERE org_id = p_org AND (p_private OR scope <> 'agent')
        AND id > coalesce(p_after::uuid, '00000000-0000-0000-0000-000000000000')
        ORDER BY id LIMIT p_limit) e;
  WHEN 'version' THEN
    SELECT jsonb_agg(to_jsonb(v) - 'org_id' ORDER BY v.entry_id, v.version) INTO v_rows
      FROM (SELECT v.* FROM entry_versions v
        WHERE v.org_id = p_org
          AND (v.entry_id, v.version) > (coalesce(split_part(p_after, ' ', 1), '00000000-0000-0000-0000-000000000000')::uuid,
            coalesce(nullif(split_part(p_after, ' ', 2), '')::integer, -1))
          AND (p_private OR NOT EXISTS (SELECT 1 FROM entries e
            WHERE e.org_id = p_org AND e.id = v.entry_id AND e.scope = 'agent'))
        ORDER BY v.entry_id, v.version LIMIT p_limit) v;
  WHEN 'artifact' THEN
    SELECT jsonb_agg(to_jsonb(a) - 'org_id' ORDER BY a.id) INTO v_rows
      FROM (SELECT * FROM artifacts WHERE org_id = p_org AND (p_private OR scope <> 'agent')
        AND id > coalesce(p_after::uuid, '00000000-0000-0000-0000-000000000000')
        ORDER BY id LIMIT p_limit) a;
  WHEN 'event' THEN
    SELECT jsonb_agg(CASE WHEN l.op = 'sealed' OR (l.private AND NOT p_private)
        THEN jsonb_build_object('seq', l.seq, 'sealed', true, 'prev_hash', l.prev_hash, 'hash', l.hash)
        ELSE to_jsonb(l) - 'org_id' END ORDER BY l.seq) INTO v_rows
      FROM (SELECT * FROM ledger WHERE org_id = p_org AND seq > coalesce(p_after::bigint, 0) AND seq <= p_head
        ORDER BY seq LIMIT p_limit) l;
  ELSE
    RAISE EXCEPTION 'part: % is not a part of an export', p_part USING ERRCODE = 'CN422';
  END CASE;
  RETURN coalesce(v_rows, '[]'::jsonb);
END $function$;
