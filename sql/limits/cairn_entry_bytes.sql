-- What an entry stores, in bytes: every field a writer sets (content, title, rationale, source,
-- tags, metadata, a plan's steps, its anchors), so that the storage quota counts all of it.
CREATE OR REPLACE FUNCTION public.cairn_entry_bytes(e entries)
 RETURNS bigint
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN octet_length(e.content)::bigint + coalesce(octet_length(e.title), 0)
      + coalesce(octet_length(e.rationale), 0) + coalesce(octet_length(e.source), 0)
      + coalesce(octet_length(array_to_string(e.tags, ' ')), 0)
      + CASE WHEN e.metadata IS NULL OR e.metadata = '{}'::jsonb THEN 0 ELSE octet_length(e.metadata::text) END
      + coalesce(octet_length(e.steps::text), 0)
      + coalesce(octet_length(array_to_string(e.paths, ' ')), 0) + coalesce(octet_length(e.commit), 0);
END $function$;
