-- An entry's own score: BM25 over the query's concepts (k1 = 1.2, b = 0.15; a concept counts once,
-- by its best-weighted term the entry holds; length in distinct lexemes), plus 4 per identifier or
-- path of the query it names: looked up among the entry's postings by the whole key (org, key,
-- project, entry) — without the project, a key every entry of the org names (a repository's
-- name) meant reading all of its postings, 7 ms a candidate at 1M entries.
CREATE OR REPLACE FUNCTION public.cairn_recall_score(p_org uuid, p_id uuid, p_project text, p_search tsvector, p_terms tsquery[], p_idf double precision[], p_groups integer[], p_idents text[], p_avgdl double precision)
 RETURNS double precision
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  -- loops over plain expressions rather than queries: this runs for each of a recall's ~30
  -- candidates, and a query in PL/pgSQL goes through the executor every time
  v_concepts int := 1;
  v_best float8[];
  v_sum float8 := 0;
  v_names bigint := 0;
  g int;
  b float8;
BEGIN
  FOREACH g IN ARRAY coalesce(p_groups, '{}') LOOP
    IF g > v_concepts THEN
      v_concepts := g;
    END IF;
  END LOOP;
  v_best := array_fill(0::float8, ARRAY[v_concepts]);
  FOR i IN 1 .. coalesce(array_length(p_terms, 1), 0) LOOP
    IF p_idf[i] > v_best[p_groups[i]] AND p_search @@ p_terms[i] THEN
      v_best[p_groups[i]] := p_idf[i];
    END IF;
  END LOOP;
  FOREACH b IN ARRAY v_best LOOP
    v_sum := v_sum + b;
  END LOOP;
  IF cardinality(p_idents) > 0 THEN
    SELECT count(*) INTO v_names FROM postings p
      WHERE p.org_id = p_org AND p.lexeme = ANY(p_idents) AND p.project = p_project AND p.entry_id = p_id;
  END IF;
  RETURN v_sum * 2.2 / (1 + 1.2 * (0.85 + 0.15 * length(p_search) / p_avgdl)) + 4 * v_names;
END $function$;
