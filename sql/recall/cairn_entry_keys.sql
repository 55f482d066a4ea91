-- The keys an entry is found by: its lexemes, and '#' + each identifier it names.
CREATE OR REPLACE FUNCTION public.cairn_entry_keys(p_search tsvector, p_title text, p_content text, p_rationale text)
 RETURNS text[]
 LANGUAGE sql
 IMMUTABLE PARALLEL SAFE
AS $function$
  SELECT tsvector_to_array(p_search) || ARRAY(
    SELECT '#' || i FROM unnest(cairn_idents(coalesce(p_title, '') || ' ' || p_content || ' ' || coalesce(p_rationale, ''))) AS i)
$function$;
