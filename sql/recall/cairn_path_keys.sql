-- The postings keys of an entry's anchors (docs/design.md, "Anchors"): for each path, '@p:' and
-- the path, and '@a:' and each folder that contains it. Recall with `paths` looks up '@p:' keys
-- of the paths asked and their folders (entries anchored there or to a folder containing them);
-- stale marks look up both kinds (an anchor overlaps another when either contains the other).
-- Paths come normalised (src/domain/anchors.ts: repo-relative, no '.', '..' or trailing '/').
CREATE OR REPLACE FUNCTION public.cairn_path_keys(p_paths text[])
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE
AS $function$
BEGIN
  IF coalesce(cardinality(p_paths), 0) = 0 THEN
    RETURN '{}';
  END IF;
  RETURN (
    SELECT coalesce(array_agg(DISTINCT k), '{}') FROM (
      SELECT '@p:' || p AS k FROM unnest(p_paths) AS p
      UNION ALL
      SELECT '@a:' || array_to_string((string_to_array(p, '/'))[1:n], '/')
      FROM unnest(p_paths) AS p, generate_series(1, cardinality(string_to_array(p, '/')) - 1) AS n) x);
END $function$;
