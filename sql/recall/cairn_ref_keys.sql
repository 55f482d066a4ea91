-- The posting keys by which a text names what other entries may name too (cairn_idents): its
-- identifiers of more than three characters ("e.g" is none), but release numbers ("2.3.2" names a
-- release, not a subject: its field data, its rollout, its rollback). Read by recall's references
-- (cairn_recall_for) and by the brief's settled failures (cairn_failure_settled).
CREATE OR REPLACE FUNCTION public.cairn_ref_keys(p text)
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
  RETURN ARRAY(SELECT '#' || x FROM unnest(cairn_idents(p)) AS x
               WHERE length(x) > 3 AND x !~ '^v?[0-9]+(\.[0-9]+)*$');
END $function$;
