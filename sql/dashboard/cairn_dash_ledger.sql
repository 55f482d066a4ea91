-- The org's ledger, newest first, by agent and operation when given, before a sequence number;
-- no event about an agent's private entry (the Memory page shows none of them either).
CREATE OR REPLACE FUNCTION public.cairn_dash_ledger(p_token_hash text, p_agent text, p_op text, p_before bigint, p_limit integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  PERFORM cairn_org_seal(a.org_id, true);
  RETURN (SELECT coalesce(jsonb_agg(cairn_event_json(l) ORDER BY l.seq DESC), '[]'::jsonb)
    FROM (SELECT * FROM ledger l
          WHERE l.org_id = a.org_id AND (p_agent IS NULL OR l.agent = p_agent) AND (p_op IS NULL OR l.op = p_op)
            AND (p_before IS NULL OR l.seq < p_before) AND NOT l.private
          ORDER BY l.seq DESC LIMIT p_limit) l);
END $function$;
