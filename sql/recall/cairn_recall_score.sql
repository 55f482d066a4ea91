-- An entry's own score: BM25 over the query's terms (k1 = 1.2, b = 0.15, a term counts once, length
-- in distinct lexemes), plus 4 per identifier or path of the query it names.
CREATE OR REPLACE FUNCTION public.cairn_recall_score(p_org uuid, p_id uuid, p_search tsvector, p_terms tsquery[], p_idf double precision[], p_idents text[], p_avgdl double precision)
 RETURNS double precision
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_sum float8 := 0;
  v_names bigint := 0;
BEGIN
  FOR i IN 1 .. coalesce(array_length(p_terms, 1), 0) LOOP
    IF p_search @@ p_terms[i] THEN
      v_sum := v_sum + p_idf[i];
    END IF;
  END LOOP;
  IF cardinality(p_idents) > 0 THEN
    SELECT count(*) INTO v_names FROM postings p
      WHERE p.org_id = p_org AND p.entry_id = p_id AND p.lexeme = ANY(p_idents);
  END IF;
  RETURN v_sum * 2.2 / (1 + 1.2 * (0.85 + 0.15 * length(p_search) / p_avgdl)) + 4 * v_names;
END $function$;
