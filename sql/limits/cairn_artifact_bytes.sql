-- What an artifact stores, in bytes: its bytes, and its name and metadata.
CREATE OR REPLACE FUNCTION public.cairn_artifact_bytes(a artifacts)
 RETURNS bigint
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT a.size + octet_length(a.name)
    + CASE WHEN a.metadata IS NULL OR a.metadata = '{}'::jsonb THEN 0 ELSE octet_length(a.metadata::text) END
$function$;
