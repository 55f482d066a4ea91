-- For requests that carry no tool call (initialize, tools/list, GET): is the credential valid,
-- within its rate, and may it act as the agent the server resolved (cairn_agent: a key bound to
-- another agent is refused as a tool call would be)? Returns {org_id}. Without an agent (the
-- org of a key, looked up for an artifact's path) only the credential is checked.
CREATE OR REPLACE FUNCTION public.cairn_whoami(p_key_hash text, p_agent text DEFAULT NULL::text, p_source text DEFAULT NULL::text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid := cairn_authenticate(p_key_hash, false);
BEGIN
  PERFORM cairn_agent(p_agent, p_source);
  RETURN jsonb_build_object('org_id', v_org);
END $function$;
