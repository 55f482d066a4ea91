-- What an entry holds, in characters, for the plan's limit on an entry's size: every field a
-- writer sets (content, title, rationale, source, tags, metadata, a plan's steps), together.
CREATE OR REPLACE FUNCTION public.cairn_entry_chars(e entries)
 RETURNS integer
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN char_length(e.content) + coalesce(char_length(e.title), 0)
      + coalesce(char_length(e.rationale), 0) + coalesce(char_length(e.source), 0)
      + coalesce(char_length(array_to_string(e.tags, ' ')), 0)
      + CASE WHEN e.metadata IS NULL OR e.metadata = '{}'::jsonb THEN 0 ELSE char_length(e.metadata::text) END
      + coalesce(char_length(e.steps::text), 0)
      + coalesce(char_length(array_to_string(e.paths, ' ')), 0) + coalesce(char_length(e.commit), 0);
END $function$;
