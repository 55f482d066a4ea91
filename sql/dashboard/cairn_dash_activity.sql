-- Activity per agent: the session org's ledger events per agent per UTC day over the last p_days
-- days (today included), oldest first; no event about an agent's private entry (the dashboard
-- shows none of them), and none of a member or an operator. Read through the index on (org_id, at).
CREATE OR REPLACE FUNCTION public.cairn_dash_activity(p_token_hash text, p_days integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
  v_since timestamptz := ((now() AT TIME ZONE 'UTC')::date - (p_days - 1))::timestamp AT TIME ZONE 'UTC';
BEGIN
  PERFORM cairn_org_seal(a.org_id, true);
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('agent', d.agent, 'day', d.day, 'events', d.events)
      ORDER BY d.day, d.agent), '[]'::jsonb)
    FROM (SELECT l.agent, to_char(l.at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, count(*)::int AS events
          FROM ledger l
          WHERE l.org_id = a.org_id AND l.at >= v_since AND NOT l.private AND coalesce(l.actor_kind, 'agent') = 'agent'
          GROUP BY 1, 2) d);
END $function$;
