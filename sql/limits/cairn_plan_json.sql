-- A plan as the operator and `space` show it, with the number of orgs on it.
CREATE OR REPLACE FUNCTION public.cairn_plan_json(p service_plans)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object('id', p.id, 'requests_per_minute', p.requests_per_minute,
    'tool_calls_per_month', p.tool_calls_per_month, 'stored_bytes', p.stored_bytes,
    'artifact_bytes', p.artifact_bytes, 'entry_chars', p.entry_chars, 'is_default', p.is_default,
    'orgs', (SELECT count(*) FROM orgs o WHERE o.plan_id = p.id), 'created_at', p.created_at)
$function$;
