-- The keys an entry is found by: its lexemes (its search vector), and '#' + each identifier its
-- text names (cairn_idents).
CREATE OR REPLACE FUNCTION public.cairn_entry_keys(p_search tsvector, p_text text)
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
  RETURN tsvector_to_array(p_search) || ARRAY(SELECT '#' || i FROM unnest(cairn_idents(p_text)) AS i);
END $function$;
