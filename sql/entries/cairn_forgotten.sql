-- The event that forgot an entry or artifact, as the reader may see it: who forgot it (agent, and
-- its kind when a member or the operator acted), when and why; NULL when the reader may not see
-- such an event (another agent's private entry) or the id was never forgotten in this org. The
-- ledger keeps it after the row is gone, so history and a second forget can say what happened.
CREATE OR REPLACE FUNCTION public.cairn_forgotten(p_org uuid, p_agent text, p_id uuid)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object('id', f.entry_id, 'by', f.agent, 'actor_kind', f.actor_kind, 'at', f.at,
      'reason', f.reason)
  FROM (SELECT l.entry_id, l.agent, l.actor_kind, l.at, l.reason FROM ledger l
        WHERE l.org_id = p_org AND l.entry_id = p_id AND l.op = 'forget' AND (NOT l.private OR l.agent = p_agent)
      UNION ALL
      -- a forget whose event a concurrent seal has not numbered yet
      SELECT p.entry_id, p.agent, p.actor_kind, p.at, p.reason FROM ledger_pending p
        WHERE p.org_id = p_org AND p.entry_id = p_id AND p.op = 'forget' AND (NOT p.private OR p.agent = p_agent)) f
  ORDER BY f.at DESC
  LIMIT 1
$function$;
