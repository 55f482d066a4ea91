-- space view history: one entry the caller may read (any shared entry of the org, or its own
-- private one), its versions (each write of it in the ledger: the first, then each update), its
-- supersede chain both ways as read from p_proj (oldest first, the entry included; an org entry
-- replaced for p_proj only is followed by that replacement; entries the caller may not read are
-- left out of it), the projects that replaced it for themselves only (replaced_in: project, id),
-- and the ledger events of every entry in that chain. Of an entry forgotten, a tool error says by
-- whom, when and why (cairn_forgotten).
CREATE OR REPLACE FUNCTION public.cairn_history(p_org uuid, p_agent text, p_id uuid, p_proj text)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_e entries;
  v_chain uuid[];
  v_forgot jsonb;
BEGIN
  SELECT * INTO v_e FROM entries
    WHERE org_id = p_org AND id = p_id AND (scope <> 'agent' OR agent = p_agent);
  IF NOT FOUND THEN
    v_forgot := cairn_forgotten(p_org, p_agent, p_id);
    IF v_forgot IS NOT NULL THEN
      RAISE EXCEPTION '%', format('entry_id: entry %s was forgotten by %s%s at %s%s; its content is gone, its ledger events stay (space view ledger with entry_id)',
        p_id, cairn_name_text(v_forgot->>'by'),
        CASE WHEN v_forgot->>'actor_kind' IN ('member', 'operator') THEN ' (' || (v_forgot->>'actor_kind') || ')' ELSE '' END,
        to_char((v_forgot->>'at')::timestamptz AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
        CASE WHEN v_forgot->>'reason' IS NULL THEN ' (no reason given)' ELSE ': ' || (v_forgot->>'reason') END)
        USING ERRCODE = 'CN404';
    END IF;
    PERFORM cairn_missing(p_org, p_id, 'entry_id: entry');
  END IF;
  WITH RECURSIVE back AS (
      SELECT e.id, e.supersedes, 0 AS depth FROM entries e WHERE e.org_id = p_org AND e.id = p_id
      UNION ALL
      SELECT e.id, e.supersedes, b.depth - 1 FROM back b
        JOIN entries e ON e.org_id = p_org AND e.id = b.supersedes
        WHERE b.depth > -1000
    ), fwd AS (
      SELECT e.id, coalesce(e.superseded_by, (e.superseded_in ->> p_proj)::uuid) AS next, 0 AS depth
        FROM entries e WHERE e.org_id = p_org AND e.id = p_id
      UNION ALL
      SELECT e.id, coalesce(e.superseded_by, (e.superseded_in ->> p_proj)::uuid), f.depth + 1 FROM fwd f
        JOIN entries e ON e.org_id = p_org AND e.id = f.next
        WHERE f.depth < 1000
    )
  SELECT array_agg(c.id ORDER BY c.depth) INTO v_chain
  FROM (SELECT id, depth FROM back UNION SELECT id, depth FROM fwd) c
  JOIN entries e ON e.org_id = p_org AND e.id = c.id AND (e.scope <> 'agent' OR e.agent = p_agent);
  RETURN jsonb_build_object(
    'entry', cairn_entry_json(v_e),
    'versions', (SELECT coalesce(jsonb_agg(jsonb_build_object('version', v.n, 'at', v.at,
        'agent', v.agent, 'op', v.op, 'content_sha256', v.content_sha256) ORDER BY v.n), '[]'::jsonb)
      FROM (SELECT l.*, row_number() OVER (ORDER BY l.seq) AS n FROM ledger l
        WHERE l.org_id = p_org AND l.entry_id = p_id AND l.op <> 'forget') v),
    'replaced_in', cairn_replaced_in(v_e),
    'chain', (SELECT coalesce(jsonb_agg(cairn_entry_json(e) ORDER BY array_position(v_chain, e.id)), '[]'::jsonb)
      FROM entries e WHERE e.org_id = p_org AND e.id = ANY(v_chain)),
    'events', (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq), '[]'::jsonb)
      FROM ledger l WHERE l.org_id = p_org AND l.entry_id = ANY(v_chain)));
END $function$;
