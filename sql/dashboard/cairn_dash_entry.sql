-- An entry's page: the entry (never an agent's private one), who last changed it and what changed
-- (a plan's updates), its versions through supersession — or, for a plan, the versions it kept as
-- it was updated in place (entry_versions) — oldest first, each with its content (the page shows
-- what changed between them), the projects that replaced it for themselves only (replaced_in:
-- project, id), and its ledger events; NULL when there is no such entry.
CREATE OR REPLACE FUNCTION public.cairn_dash_entry(p_token_hash text, p_id uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
  v_e entries;
BEGIN
  PERFORM cairn_org_seal(a.org_id, true);
  SELECT * INTO v_e FROM entries WHERE org_id = a.org_id AND id = p_id AND scope <> 'agent';
  IF v_e.id IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'entry', cairn_entry_json(v_e),
    'updated_by', v_e.updated_by, 'last_change', v_e.last_change,
    'replaced_in', cairn_replaced_in(v_e),
    'versions', CASE WHEN v_e.kind = 'plan' THEN (
      SELECT jsonb_agg(x.v ORDER BY x.n) FROM (
        SELECT jsonb_build_object('id', k.entry_id, 'created_at', k.updated_at, 'agent', k.updated_by,
          'version', k.version, 'current', false, 'kept', true, 'content', k.content) AS v, k.version AS n
        FROM entry_versions k WHERE k.org_id = a.org_id AND k.entry_id = p_id
        UNION ALL
        SELECT jsonb_build_object('id', v_e.id, 'created_at', v_e.updated_at,
          'agent', coalesce(v_e.updated_by, v_e.agent), 'version', v_e.version, 'current', true,
          'content', v_e.content), v_e.version) x)
    ELSE (
      WITH RECURSIVE older AS (
        SELECT e.*, 0 AS step FROM entries e WHERE e.org_id = a.org_id AND e.id = p_id
        UNION ALL
        SELECT e.*, o.step - 1 FROM older o JOIN entries e ON e.org_id = a.org_id AND e.id = o.supersedes
        WHERE o.step > -100
      ), newer AS (
        SELECT e.*, 0 AS step FROM entries e WHERE e.org_id = a.org_id AND e.id = p_id
        UNION ALL
        SELECT e.*, n.step + 1 FROM newer n JOIN entries e ON e.org_id = a.org_id AND e.id = n.superseded_by
        WHERE n.step < 100
      )
      SELECT coalesce(jsonb_agg(jsonb_build_object('id', v.id, 'created_at', v.created_at, 'agent', v.agent,
        'version', v.version, 'current', v.id = p_id, 'content', v.content) ORDER BY v.step), '[]'::jsonb)
      FROM (SELECT * FROM older UNION SELECT * FROM newer) v WHERE v.scope <> 'agent') END,
    'events', (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq), '[]'::jsonb)
      FROM ledger l WHERE l.org_id = a.org_id AND l.entry_id = p_id));
END $function$;
