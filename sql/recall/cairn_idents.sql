-- Identifiers and paths, whole and lower-cased: tokens with _ . / : # @ - inside, camelCase, or
-- letters mixed with digits (scripts/deploy.sh, useEffect, ERR_CODE_42, v2.1).
CREATE OR REPLACE FUNCTION public.cairn_idents(p text)
 RETURNS text[]
 LANGUAGE plpgsql
 IMMUTABLE PARALLEL SAFE
AS $function$
BEGIN
  -- a token can hold one of these only if the whole text does
  IF p IS NULL OR p !~ '[_./:#@-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]' THEN
    RETURN '{}';
  END IF;
  RETURN (SELECT coalesce(array_agg(DISTINCT lower(m[1])), '{}'::text[])
    FROM regexp_matches(p, '([A-Za-z0-9_][A-Za-z0-9_./:#@-]*[A-Za-z0-9_])', 'g') AS m
    WHERE length(m[1]) BETWEEN 3 AND 200
      AND m[1] ~ '[_./:#@-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]');
END $function$;
