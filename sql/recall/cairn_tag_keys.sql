-- The postings keys of an entry's tags: '@t:' and each tag in lower case, once ("PubSub" and
-- "pubsub" are one tag). Recall looks them up for context by reference (cairn_recall_for): an
-- entry that shares two tags with a hit, one of them a tag few entries carry, is on its topic.
CREATE OR REPLACE FUNCTION public.cairn_tag_keys(p_tags text[])
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
  RETURN (SELECT coalesce(array_agg(DISTINCT '@t:' || lower(t)), '{}') FROM unnest(p_tags) AS t);
END $function$;
