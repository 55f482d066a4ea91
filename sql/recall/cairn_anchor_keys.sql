-- The '@p:' keys that find entries anchored to p_paths or to a folder containing one of them: each
-- path and each of its folders (cairn_path_keys files an entry under them).
CREATE OR REPLACE FUNCTION public.cairn_anchor_keys(p_paths text[])
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  RETURN (
    SELECT coalesce(array_agg(DISTINCT '@p:' || array_to_string((string_to_array(p, '/'))[1:n], '/')), '{}')
    FROM unnest(p_paths) AS p, generate_series(1, cardinality(string_to_array(p, '/'))) AS n);
END $function$;
