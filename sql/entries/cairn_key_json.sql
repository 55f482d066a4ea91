-- An API key as the operator and the dashboard list it (never its hash).
CREATE OR REPLACE FUNCTION public.cairn_key_json(k api_keys)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object('id', k.id, 'org_id', k.org_id, 'name', k.name, 'prefix', k.prefix,
    'agent', k.agent, 'created_by', k.created_by, 'created_at', k.created_at, 'last_used_at', k.last_used_at,
    'revoked_at', k.revoked_at)
$function$;
