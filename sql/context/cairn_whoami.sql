-- For requests that carry no tool call (initialize, tools/list, GET): is the credential valid,
-- within its rate? Returns {org_id, bound_agent}: the agent an API key is bound to, or null.
CREATE OR REPLACE FUNCTION public.cairn_whoami(p_key_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid := cairn_authenticate(p_key_hash, false);
BEGIN
  RETURN jsonb_build_object('org_id', v_org, 'bound_agent', nullif(current_setting('cairn.bound_agent', true), ''));
END $function$;
