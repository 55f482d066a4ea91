-- Recall, second form: bounded two-phase ranking, and the context of neighbouring memories.
--
-- 1. Keys: the query's terms from the rarest while their document frequencies add up to 2,000
--    (always the rarest), weighted by idf, and the identifiers and paths it names, weighted 4.
--    Each key is read newest first off the postings index, at most 500 entries, in each project
--    the read sees (its own and the org-wide entries; every project of the org for an org read,
--    or across projects with a sort past 64 projects). Entries rank by the weights of their keys.
-- 2. The best 50 (or the page size, if larger) are scored in full: BM25 over every query term
--    (k1 = 1.2, b = 0.15, a term counts once), plus 4 per identifier.
-- 3. Context: memories written one after another in a project belong together (a reply and what it
--    answers, a decision and its reason). The two nearest visible entries on either side of each of
--    the 10 best candidates are brought in with 0.7 of that candidate's score (0.5 two away); a
--    candidate keeps the larger of its own score and what its neighbours lend it. An answer whose
--    words differ from the question's is found through its neighbour, and never ranks above it.
--    The larger, not the sum, so that a run of similar entries does not lift itself above a rarer
--    match.
-- The work is bounded by those constants, not by the size of the org.

-- Whether an entry is one a recall may return: scope, expiry, supersession and the read's filters.
CREATE FUNCTION cairn_recall_visible(
  e entries, p_agent text, p_scope text, p_proj text, p_all boolean, p_kinds text[], p_tags text[],
  p_author text, p_since timestamptz, p_until timestamptz
) RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT cairn_in_scope(e.scope, e.project, e.agent, p_scope, p_proj, p_agent)
    AND (e.expires_at IS NULL OR e.expires_at > now())
    AND (p_all OR e.superseded_by IS NULL)
    AND (p_kinds IS NULL OR e.kind = ANY(p_kinds))
    AND (p_tags IS NULL OR e.tags && p_tags)
    AND (p_author IS NULL OR e.agent = p_author)
    AND (p_since IS NULL OR e.created_at >= p_since)
    AND (p_until IS NULL OR e.created_at < p_until)
$$;
--> statement-breakpoint
-- An entry's own score: BM25 over the query's terms (k1 = 1.2, b = 0.15, a term counts once, length
-- in distinct lexemes), plus 4 per identifier or path of the query it names.
CREATE FUNCTION cairn_recall_score(
  p_org uuid, p_id uuid, p_search tsvector, p_terms tsquery[], p_idf float8[], p_idents text[], p_avgdl float8
) RETURNS float8 LANGUAGE plpgsql STABLE AS $$
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
END $$;
--> statement-breakpoint
-- An empty query: the most recent visible entries. Planned per call (the filters decide the plan).
CREATE FUNCTION cairn_recall_recent(
  p_org uuid, p_agent text, p_scope text, p_proj text, p_all boolean, p_kinds text[], p_tags text[],
  p_author text, p_since timestamptz, p_until timestamptz, p_limit int
) RETURNS jsonb LANGUAGE plpgsql STABLE SET plan_cache_mode = auto AS $$
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(cairn_entry_json(r) || '{"score": 0}'::jsonb ORDER BY r.created_at DESC, r.id DESC), '[]'::jsonb)
    FROM (SELECT * FROM entries e
          WHERE e.org_id = p_org
            AND cairn_recall_visible(e, p_agent, p_scope, p_proj, p_all, p_kinds, p_tags, p_author, p_since, p_until)
          ORDER BY e.created_at DESC, e.id DESC LIMIT p_limit) r);
END $$;
--> statement-breakpoint
-- Generic plans: the ranking statements take milliseconds to plan, longer than they run; each is
-- written so that one plan fits every call (index walks bounded by LIMIT, lookups by key), so a
-- connection plans them once.
CREATE OR REPLACE FUNCTION cairn_recall(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_org uuid := cairn_auth(p_key_hash);
  v_proj text := cairn_project(v_org, p_project, false);
  v_scope text := cairn_read_scope(p_args->>'scope', v_proj);
  v_query text := coalesce(p_args->>'query', '');
  v_kinds text[] := CASE WHEN p_args ? 'kinds'
    THEN ARRAY(SELECT jsonb_array_elements_text(p_args->'kinds')) END;
  v_tags text[] := CASE WHEN p_args ? 'tags'
    THEN ARRAY(SELECT jsonb_array_elements_text(p_args->'tags')) END;
  v_author text := p_args->>'agent';
  v_since timestamptz := (p_args->>'since')::timestamptz;
  v_until timestamptz := (p_args->>'until')::timestamptz;
  v_all boolean := coalesce((p_args->>'include_superseded')::boolean, false);
  v_limit int := coalesce((p_args->>'limit')::int, 10);
  v_rescore int := greatest(50, v_limit);
  v_cap constant int := 500;
  v_budget constant int := 2000;
  v_sources constant int := 10;
  v_context constant float8 := 0.7;
  v_context2 constant float8 := 0.5;
  v_docs float8;
  v_avgdl float8;
  v_lex text[];
  v_terms tsquery[];
  v_idf float8[];
  v_df bigint[];
  v_keys text[];
  v_weights float8[];
  v_idents text[] := ARRAY(SELECT '#' || i FROM unnest(cairn_idents(v_query)) AS i);
  v_projects text[];
  v_cand uuid[];
  v_ids uuid[];
  v_scores float8[];
  v_project_keys text[];
  v_hits jsonb;
BEGIN
  IF v_query = '' THEN
    RETURN jsonb_build_object('hits', cairn_recall_recent(v_org, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags,
      v_author, v_since, v_until, v_limit), 'project', v_proj, 'scope', v_scope);
  END IF;

  SELECT greatest(docs, 1), CASE WHEN docs > 0 THEN greatest(lexemes::float8 / docs, 1) ELSE 1 END
    INTO v_docs, v_avgdl FROM entry_stats WHERE org_id = v_org;
  SELECT array_agg(s.l ORDER BY s.df, s.l),
         array_agg(quote_literal(s.l)::tsquery ORDER BY s.df, s.l),
         array_agg(ln(1 + (v_docs - s.df + 0.5) / (s.df + 0.5)) ORDER BY s.df, s.l),
         array_agg(s.df ORDER BY s.df, s.l)
    INTO v_lex, v_terms, v_idf, v_df
    FROM (SELECT q.l, t.df FROM unnest(tsvector_to_array(to_tsvector('english', v_query))) AS q(l)
          JOIN term_stats t ON t.org_id = v_org AND t.lexeme = q.l AND t.df > 0) s;
  SELECT coalesce(array_agg(c.l ORDER BY c.ord), '{}') || v_idents,
         coalesce(array_agg(c.idf ORDER BY c.ord), '{}') || array_fill(4::float8, ARRAY[cardinality(v_idents)])
    INTO v_keys, v_weights
    FROM (SELECT u.l, u.idf, u.ord, sum(u.df) OVER (ORDER BY u.ord) AS cum
          FROM unnest(v_lex, v_idf, v_df) WITH ORDINALITY AS u(l, idf, df, ord)) c
    WHERE c.ord = 1 OR c.cum <= v_budget;
  -- the projects the read sees: its own and the org-wide entries (''), or every project for an org
  -- read; an org of more than 64 projects is read across projects with a sort instead
  v_projects := CASE WHEN v_scope <> 'org' AND v_proj IS NOT NULL THEN ARRAY[v_proj, '']
    ELSE ARRAY(SELECT canonical FROM projects WHERE org_id = v_org LIMIT 65) || ''::text END;

  -- phase 1: entry ids are UUIDv7, so newest first is id order, per project straight off the index
  IF cardinality(v_projects) <= 65 THEN
    SELECT array_agg(r.entry_id ORDER BY r.w DESC, r.entry_id DESC) INTO v_cand FROM (
      SELECT x.entry_id, sum(k.w) AS w FROM unnest(v_keys, v_weights) AS k(key, w)
      CROSS JOIN LATERAL (
        SELECT y.entry_id FROM unnest(v_projects) AS pr(project)
        CROSS JOIN LATERAL (SELECT p.entry_id FROM postings p
                            WHERE p.org_id = v_org AND p.lexeme = k.key AND p.project = pr.project
                            ORDER BY p.entry_id DESC LIMIT v_cap) y
        ORDER BY y.entry_id DESC LIMIT v_cap) x
      GROUP BY x.entry_id ORDER BY sum(k.w) DESC, x.entry_id DESC LIMIT v_rescore) r;
  ELSE
    SELECT array_agg(r.entry_id ORDER BY r.w DESC, r.entry_id DESC) INTO v_cand FROM (
      SELECT x.entry_id, sum(k.w) AS w FROM unnest(v_keys, v_weights) AS k(key, w)
      CROSS JOIN LATERAL (SELECT p.entry_id FROM postings p WHERE p.org_id = v_org AND p.lexeme = k.key
                          ORDER BY p.entry_id DESC LIMIT v_cap) x
      GROUP BY x.entry_id ORDER BY sum(k.w) DESC, x.entry_id DESC LIMIT v_rescore) r;
  END IF;
  IF v_cand IS NULL THEN
    RETURN jsonb_build_object('hits', '[]'::jsonb, 'project', v_proj, 'scope', v_scope);
  END IF;

  -- phase 2: the candidates the read may see, scored in full, best first
  SELECT array_agg(c.id ORDER BY c.score DESC, c.id DESC), array_agg(c.score ORDER BY c.score DESC, c.id DESC),
         array_agg(c.project_key ORDER BY c.score DESC, c.id DESC)
    INTO v_ids, v_scores, v_project_keys
    FROM (SELECT e.id, e.project_key, cairn_recall_score(v_org, e.id, e.search, v_terms, v_idf, v_idents, v_avgdl) AS score
          FROM entries e WHERE e.org_id = v_org AND e.id = ANY(v_cand) AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until)) c;
  IF v_ids IS NULL THEN
    RETURN jsonb_build_object('hits', '[]'::jsonb, 'project', v_proj, 'scope', v_scope);
  END IF;

  -- phase 3: context from the neighbours of the best v_sources, then the page
  WITH near AS (
    -- the two nearest visible entries on either side in the same project, among the four nearest:
    -- four steps on entries_org_project_id_idx whatever the filters (visibility is judged on the
    -- rows read, so no estimate of the filters can turn the walk into a scan)
    SELECT x.id, x.source_score, row_number() OVER (
             PARTITION BY x.source, x.before ORDER BY CASE WHEN x.before THEN x.id END DESC, x.id) AS distance
    FROM (SELECT s.id AS source, s.score AS source_score, n.id, n.before, n.visible
          FROM unnest(v_ids[1:v_sources], v_scores[1:v_sources], v_project_keys[1:v_sources]) AS s(id, score, project_key)
          CROSS JOIN LATERAL (
            (SELECT e.id, true AS before, cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until) AS visible
             FROM entries e WHERE e.org_id = v_org AND e.project_key = s.project_key AND e.id < s.id
             ORDER BY e.project_key DESC, e.id DESC LIMIT 4)
            UNION ALL
            (SELECT e.id, false, cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until)
             FROM entries e WHERE e.org_id = v_org AND e.project_key = s.project_key AND e.id > s.id
             ORDER BY e.project_key, e.id LIMIT 4)) n
          WHERE s.score > 0) x
    WHERE x.visible
  ), boosts AS (
    SELECT n.id, max(n.source_score * CASE n.distance WHEN 1 THEN v_context ELSE v_context2 END) AS boost
    FROM near n WHERE n.distance <= 2 GROUP BY n.id
  ), ranked AS (
    SELECT r.id, max(r.score) AS score FROM (
      -- a candidate keeps the larger of its own score and its boost; a neighbour that is not a
      -- candidate has the boost (had its own words weighed more, it would have been a candidate)
      SELECT u.id, u.score FROM unnest(v_ids, v_scores) AS u(id, score)
      UNION ALL
      SELECT b.id, b.boost FROM boosts b
      ) r
    GROUP BY r.id ORDER BY max(r.score) DESC, r.id DESC LIMIT v_limit
  )
  SELECT coalesce(jsonb_agg(cairn_entry_json(e) || jsonb_build_object('score', round(r.score::numeric, 4))
      ORDER BY r.score DESC, r.id DESC), '[]'::jsonb)
    INTO v_hits
    FROM ranked r JOIN entries e ON e.org_id = v_org AND e.id = r.id;
  RETURN jsonb_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope);
END $$;
