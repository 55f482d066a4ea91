-- The agent a tool call acts as, after cairn_auth. A key bound to an agent (api_keys.agent) acts
-- as that agent only: without X-Svc-Agent it is that agent, and another one is refused (CN403).
-- Otherwise the agent is what the server resolved (the header's, else the OAuth client's, else
-- the default). p_source says where the server took it from: 'header', 'client' or 'default'.
-- Whether the identity came from the credential rather than a header is left in cairn.verified
-- for the ledger events of the statement (cairn_ledger_append).
-- The agent is also left in cairn.reader, for what is shown of supersede links (cairn_link_seen),
-- and cairn.actor_kind says the statement's events are an agent's (cairn_ledger_append).
CREATE OR REPLACE FUNCTION public.cairn_agent(p_agent text, p_source text)
 RETURNS text
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_bound text := nullif(current_setting('cairn.bound_agent', true), '');
BEGIN
  PERFORM set_config('cairn.actor_kind', 'agent', true);
  IF v_bound IS NOT NULL THEN
    IF p_source = 'header' AND p_agent IS DISTINCT FROM v_bound THEN
      RAISE EXCEPTION 'this API key is bound to agent "%" and cannot act as "%": send X-Svc-Agent: % or leave it out',
        v_bound, p_agent, v_bound USING ERRCODE = 'CN403';
    END IF;
    PERFORM set_config('cairn.verified', 'on', true);
    PERFORM set_config('cairn.reader', v_bound, true);
    RETURN v_bound;
  END IF;
  PERFORM set_config('cairn.verified', CASE WHEN p_source = 'client' THEN 'on' ELSE '' END, true);
  PERFORM set_config('cairn.reader', coalesce(p_agent, ''), true);
  RETURN p_agent;
END $function$;
