-- An artifact as tools and the dashboard return it (never its blob key).
CREATE OR REPLACE FUNCTION public.cairn_artifact_json(a artifacts)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object(
    'id', a.id, 'name', a.name, 'version', a.version, 'size', a.size, 'sha256', a.sha256,
    'content_type', a.content_type, 'scope', a.scope, 'project', a.project, 'agent', a.agent,
    'metadata', a.metadata, 'created_at', a.created_at)
$function$;
