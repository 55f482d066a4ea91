-- An entry's own score: BM25 over the query's concepts (k1 = 0.5, b = 0.15; a concept counts once,
-- by its best-scoring term the entry holds; length in distinct lexemes), plus 4 per identifier or
-- path of the query it names: looked up among the entry's postings by the whole key (org, key,
-- project, entry) — without the project, a key every entry of the org names (a repository's
-- name) meant reading all of its postings, 7 ms a candidate at 1M entries.
-- A term's frequency is read off the entry's vector: each word of its text is there three times
-- (cairn_search_vector reads the text three ways, at weight D), those of its lead once more at
-- weight A — the lead has its own bonus (cairn_recall_for), so a third of the D positions is how
-- often the text says the word. An entry that names "mcuboot" three times is about MCUboot.
CREATE OR REPLACE FUNCTION public.cairn_recall_score(p_org uuid, p_id uuid, p_project text, p_search tsvector, p_terms tsquery[], p_idf double precision[], p_groups integer[], p_idents text[], p_avgdl double precision)
 RETURNS double precision
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  -- loops over plain expressions rather than queries: this runs for each of a recall's ~30
  -- candidates, and a query in PL/pgSQL goes through the executor every time (reading a term's
  -- positions by unnest() cost 60 µs a candidate, filtering the vector as below 20, against 12)
  v_k1 constant float8 := 0.5;
  v_norm float8 := v_k1 * (0.85 + 0.15 * length(p_search) / p_avgdl);
  v_concepts int := 1;
  v_best float8[];
  v_sum float8 := 0;
  v_names bigint := 0;
  v_outside_lead tsvector := ts_filter(p_search, '{d}');
  v_positions text;
  v_tf float8;
  v_term float8;
  v_lexeme text;
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
    IF p_search @@ p_terms[i] THEN
      -- the term's lexeme: a one-lexeme query prints as it, quoted, its quotes doubled
      v_lexeme := p_terms[i]::text;
      v_lexeme := replace(substr(v_lexeme, 2, length(v_lexeme) - 2), '''''', '''');
      -- its positions outside the lead, printed ("'mcuboot':3C,5C,9C"): one more than the commas
      v_positions := ts_filter(setweight(v_outside_lead, 'c', ARRAY[v_lexeme]), '{c}')::text;
      v_tf := greatest(1, (length(v_positions) - length(replace(v_positions, ',', '')) + 1) / 3.0);
      v_term := p_idf[i] * v_tf * (v_k1 + 1) / (v_tf + v_norm);
      IF v_term > v_best[p_groups[i]] THEN
        v_best[p_groups[i]] := v_term;
      END IF;
    END IF;
  END LOOP;
  FOREACH b IN ARRAY v_best LOOP
    v_sum := v_sum + b;
  END LOOP;
  IF cardinality(p_idents) > 0 THEN
    SELECT count(*) INTO v_names FROM postings p
      WHERE p.org_id = p_org AND p.lexeme = ANY(p_idents) AND p.project = p_project AND p.entry_id = p_id;
  END IF;
  RETURN v_sum + 4 * v_names;
END $function$;
