-- A query's terms as recall weighs them, each with its document frequency among the entries the
-- reader may see (the org's shared entries and p_agent's private ones: another agent's private
-- entries count as if they did not exist) and the concept it stands for (term_group): a concept
-- counts once in a score, by its best match.
-- - The query's own words and the parts of its identifiers and paths weigh 1.
-- - The service's expansions (p_groups: lists whose first term is a word or phrase of the query
--   and the rest its abbreviations, synonyms or verb forms, from src/domain) weigh 1, in the
--   concept of their query word, as Lucene's SynonymQuery weighs a synonym: with the largest
--   document frequency among the concept's terms, so a rare synonym weighs no more than the common
--   word it stands for (against half weight at their own frequency: CodeRecall R@5 dev 95.9 -> 96.3,
--   dev2 93.4 -> 94.4, synonym questions 92.5 -> 95 and 85 -> 92.5, MRR 0.900 -> 0.897 and 0.856 ->
--   0.853; LoCoMo dev R@10 77.4 -> 77.9).
-- - camelCase parts of the query's words weigh p_expansion, each its own concept.
-- - A query word the reader's entries never hold brings their longer words that begin with it
--   ("postgres" finds postgresql, "auth" authentication), at most p_prefixes, in its concept.
CREATE OR REPLACE FUNCTION public.cairn_recall_terms(p_org uuid, p_agent text, p_query text, p_groups jsonb, p_expansion double precision, p_prefixes integer)
 RETURNS TABLE(lexeme text, weight double precision, df bigint, term_group integer)
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_agent text := coalesce(p_agent, ''); -- a reader who is no agent (the dashboard) sees the shared rows
BEGIN
  -- plpgsql, so each connection plans these statements once; every term_stats read is a lookup
  -- by key (a lateral join), never an anti-join that could read the org's whole vocabulary
  RETURN QUERY
  WITH exact AS (
    SELECT DISTINCT x.l FROM unnest(tsvector_to_array(to_tsvector('english', p_query)
      || to_tsvector('english', regexp_replace(p_query, '[^[:alnum:]]+', ' ', 'g')))) AS x(l)
  ), grouped AS (
    -- a phrase the query did not write ("credential stuffing" for "brute force") is one term, the
    -- phrase (cairn_phrase: its tsquery's text, which no lexeme is: it begins with a quote), held
    -- only as a phrase; the query's own word or phrase (a group's first) is its lexemes, as the
    -- query's other words
    SELECT DISTINCT g.ord AS gid, v.l, v.parts
    FROM jsonb_array_elements(coalesce(p_groups, '[]'::jsonb)) WITH ORDINALITY AS g(terms, ord),
         jsonb_array_elements_text(g.terms) WITH ORDINALITY AS t(term, pos),
         LATERAL (SELECT tsvector_to_array(cairn_search_vector(t.term)) AS l,
                         CASE WHEN t.pos > 1 THEN cairn_phrase(t.term) END AS phrase) w,
         LATERAL (SELECT x.l, ARRAY[x.l] AS parts FROM unnest(w.l) AS x(l) WHERE w.phrase IS NULL
                  UNION ALL
                  SELECT w.phrase, w.l WHERE w.phrase IS NOT NULL) v
  ), terms AS (
    -- a lexeme of a group belongs to the group's concept, whether the query wrote it or not
    SELECT e.l, 1.0::float8 AS w, coalesce((SELECT 'g' || min(g.gid) FROM grouped g WHERE g.l = e.l), 'x' || e.l) AS concept,
           false AS synonym, ARRAY[e.l] AS parts
    FROM exact e
    UNION ALL
    SELECT g.l, 1.0::float8, 'g' || g.gid, true, g.parts FROM grouped g WHERE g.l NOT IN (SELECT e.l FROM exact e)
    UNION ALL
    SELECT c.l, p_expansion, 'c' || c.l, false, ARRAY[c.l]
    FROM unnest(tsvector_to_array(cairn_search_vector(p_query))) AS c(l)
    WHERE c.l NOT IN (SELECT e.l FROM exact e) AND c.l NOT IN (SELECT g.l FROM grouped g)
  ), known AS (
    -- a phrase is known when each of its words is, as often as its rarest at most
    SELECT t.l, t.w, t.concept, t.synonym, k.df
    FROM terms t
    LEFT JOIN LATERAL (SELECT min(d.df) AS df FROM unnest(t.parts) AS x(l)
                       LEFT JOIN LATERAL (SELECT sum(s.df) AS df FROM term_stats s
                                          WHERE s.org_id = p_org AND s.lexeme = x.l AND s.agent_key IN ('', v_agent)
                                          HAVING sum(s.df) > 0) d ON true
                       HAVING bool_and(d.df IS NOT NULL)) k ON true
  ), prefixed AS (
    SELECT p.lexeme AS l, p_expansion AS w, k.concept, false AS synonym, p.df
    FROM known k
    CROSS JOIN LATERAL (SELECT s.lexeme, sum(s.df) AS df FROM term_stats s
                        WHERE s.org_id = p_org AND s.lexeme > k.l AND s.lexeme < k.l || 'zzzz'
                          AND left(s.lexeme, length(k.l)) = k.l AND s.agent_key IN ('', v_agent) AND s.df > 0
                        GROUP BY s.lexeme ORDER BY s.lexeme LIMIT p_prefixes) p
    WHERE k.df IS NULL AND k.w = 1 AND length(k.l) >= 3 AND k.l !~ '^[0-9]+$' AND NOT starts_with(k.l, '''')
  ), weighed AS (
    SELECT a.l, max(a.w) AS w, min(a.concept) AS concept, bool_and(a.synonym) AS synonym, max(a.df) AS df
    FROM (SELECT k.l, k.w, k.concept, k.synonym, k.df FROM known k WHERE k.df IS NOT NULL
          UNION ALL SELECT x.l, x.w, x.concept, x.synonym, x.df FROM prefixed x) a
    GROUP BY a.l
  )
  SELECT w.l, w.w,
         (CASE WHEN w.synonym THEN max(w.df) OVER (PARTITION BY w.concept) ELSE w.df END)::bigint,
         dense_rank() OVER (ORDER BY w.concept)::int FROM weighed w;
END $function$;
