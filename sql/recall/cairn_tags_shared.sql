-- How many tags two entries have in common, compared as recall files them (cairn_tag_keys: in lower
-- case, each once). Recall's context reads it both ways (cairn_recall_for): a thread neighbour with
-- tags and none in common is on another topic; an entry with two in common, one of them rare, is a
-- reference.
CREATE OR REPLACE FUNCTION public.cairn_tags_shared(p_a text[], p_b text[])
 RETURNS int
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
  RETURN cardinality(ARRAY(SELECT unnest(cairn_tag_keys(p_a)) INTERSECT SELECT unnest(cairn_tag_keys(p_b))));
END $function$;
