-- For requests that carry no tool call (initialize, tools/list, GET): is the credential valid,
-- within its rate? Returns {org_id}.
CREATE OR REPLACE FUNCTION public.cairn_whoami(p_key_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  RETURN jsonb_build_object('org_id', cairn_authenticate(p_key_hash, false));
END $function$;
