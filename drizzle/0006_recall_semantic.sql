-- Recall, third form: the ranking of 0005 at a lower cost per call (BENCHMARKS.md, "Where recall
-- time goes"), and optional semantic recall fused with it.
-- - The result is json, not jsonb: the service passes it on as it is, and json_build_object costs a
--   third of jsonb_build_object (no sorted binary form to build and print back).
-- - Phase 2 scores each candidate once: flattened into the three aggregates, the scored subquery
--   evaluated the score once per aggregate.
-- - Identifiers are looked for only in text with an identifier-like character, and cairn_idents is
--   plpgsql, whose statement is planned once per connection (a SQL function with an aggregate is
--   planned again on every call).
-- - Smaller bounds, none of which moved LoCoMo recall (BENCHMARKS.md): each key reads its newest
--   250 postings per project (was 500), the best 30 candidates are scored in full (was 50; the
--   page size if larger), and context comes from the neighbours of the best 5 (was 10).
-- - The neighbour walk is a row comparison on (project_key, id), a condition only
--   entries_org_project_id_idx serves: with the project as an equality, a planner that saw few orgs
--   could walk the primary key instead, through other orgs' entries.

CREATE OR REPLACE FUNCTION cairn_idents(p text) RETURNS text[] LANGUAGE plpgsql IMMUTABLE PARALLEL SAFE AS $$
BEGIN
  -- a token can hold one of these only if the whole text does
  IF p IS NULL OR p !~ '[_./:#@-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]' THEN
    RETURN '{}';
  END IF;
  RETURN (SELECT coalesce(array_agg(DISTINCT lower(m[1])), '{}'::text[])
    FROM regexp_matches(p, '([A-Za-z0-9_][A-Za-z0-9_./:#@-]*[A-Za-z0-9_])', 'g') AS m
    WHERE length(m[1]) BETWEEN 3 AND 200
      AND m[1] ~ '[_./:#@-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]');
END $$;
--> statement-breakpoint
-- An entry as a recall hit, in json.
CREATE FUNCTION cairn_hit_json(e entries, p_score float8) RETURNS json LANGUAGE sql STABLE AS $$
  SELECT json_build_object(
    'id', e.id, 'kind', e.kind, 'content', e.content, 'rationale', e.rationale,
    'source', e.source, 'title', e.title, 'status', e.status, 'steps', e.steps,
    'tags', e.tags, 'scope', e.scope, 'project', e.project, 'agent', e.agent,
    'metadata', e.metadata, 'created_at', e.created_at, 'updated_at', e.updated_at,
    'version', e.version, 'supersedes', e.supersedes, 'superseded_by', e.superseded_by,
    'expires_at', e.expires_at, 'score', round(p_score::numeric, 4))
$$;
--> statement-breakpoint
DROP FUNCTION cairn_recall(text, text, text, jsonb);
--> statement-breakpoint
DROP FUNCTION cairn_recall_recent(uuid, text, text, text, boolean, text[], text[], text, timestamptz, timestamptz, int);
--> statement-breakpoint
-- An empty query: the most recent visible entries. Planned per call (the filters decide the plan).
CREATE FUNCTION cairn_recall_recent(
  p_org uuid, p_agent text, p_scope text, p_proj text, p_all boolean, p_kinds text[], p_tags text[],
  p_author text, p_since timestamptz, p_until timestamptz, p_limit int
) RETURNS json LANGUAGE plpgsql STABLE SET plan_cache_mode = auto AS $$
BEGIN
  RETURN (SELECT coalesce(json_agg(cairn_hit_json(r, 0) ORDER BY r.created_at DESC, r.id DESC), '[]'::json)
    FROM (SELECT * FROM entries e
          WHERE e.org_id = p_org
            AND cairn_recall_visible(e, p_agent, p_scope, p_proj, p_all, p_kinds, p_tags, p_author, p_since, p_until)
          ORDER BY e.created_at DESC, e.id DESC LIMIT p_limit) r);
END $$;
--> statement-breakpoint
-- Semantic recall (off by default; docs/design.md, "Semantic recall"): the vector store, set up by
-- the service when embeddings are configured, on a database with pgvector 0.8 or later (iterative
-- index scans: the org's filter is applied inside the HNSW walk, not to its first 40 rows). One
-- HNSW index per model and dimension count, partial on the model, over a cast to fixed dimensions.
-- Returns NULL when ready, else why semantic recall is unavailable (recall stays lexical).
CREATE FUNCTION cairn_vectors_setup(p_model text, p_dims int) RETURNS text LANGUAGE plpgsql AS $$
DECLARE
  v_version text;
BEGIN
  SELECT extversion INTO v_version FROM pg_extension WHERE extname = 'vector';
  IF v_version IS NULL THEN
    IF NOT EXISTS (SELECT 1 FROM pg_available_extensions WHERE name = 'vector') THEN
      RETURN 'the database has no pgvector extension';
    END IF;
    CREATE EXTENSION vector;
    SELECT extversion INTO v_version FROM pg_extension WHERE extname = 'vector';
  END IF;
  IF string_to_array(split_part(v_version, '-', 1), '.')::int[] < ARRAY[0, 8] THEN
    RETURN format('pgvector %s is older than 0.8', v_version);
  END IF;
  CREATE TABLE IF NOT EXISTS entry_vectors (
    entry_id uuid NOT NULL REFERENCES entries (id) ON DELETE CASCADE,
    model text NOT NULL,
    org_id uuid NOT NULL,
    embedding vector NOT NULL,
    PRIMARY KEY (entry_id, model));
  ALTER TABLE entry_vectors ENABLE ROW LEVEL SECURITY;
  ALTER TABLE entry_vectors FORCE ROW LEVEL SECURITY;
  IF NOT EXISTS (SELECT 1 FROM pg_policies WHERE tablename = 'entry_vectors') THEN
    CREATE POLICY entry_vectors_isolation ON entry_vectors USING (org_id = cairn_org());
  END IF;
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    GRANT SELECT, INSERT, UPDATE, DELETE ON entry_vectors TO cairn_app;
  END IF;
  EXECUTE format('CREATE INDEX IF NOT EXISTS %I ON entry_vectors USING hnsw ((embedding::vector(%s)) vector_cosine_ops) WHERE model = %L',
    'entry_vectors_' || left(md5(p_model || '/' || p_dims), 16), p_dims, p_model);
  RETURN NULL;
EXCEPTION WHEN insufficient_privilege THEN
  RETURN format('the role %s may not set up pgvector (%s); run cairn migrate as the database owner', current_user, SQLERRM);
END $$;
--> statement-breakpoint
-- Stores the vector of the entry a write or plan statement returned (`r`), in the same statement.
CREATE FUNCTION cairn_vector_put(r jsonb, p_model text, p_vector text) RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  IF to_regclass('entry_vectors') IS NOT NULL AND r->'entry'->>'id' IS NOT NULL THEN
    BEGIN
      INSERT INTO entry_vectors (entry_id, model, org_id, embedding)
        VALUES ((r->'entry'->>'id')::uuid, p_model, cairn_org(), p_vector::vector)
        ON CONFLICT (entry_id, model) DO UPDATE SET embedding = EXCLUDED.embedding;
    EXCEPTION WHEN others THEN -- the entry is stored whatever becomes of its vector
      RAISE WARNING 'cairn: vector of entry % not stored: %', r->'entry'->>'id', SQLERRM;
    END;
  END IF;
  RETURN r;
END $$;
--> statement-breakpoint
-- The entries nearest a query vector (cosine distance), nearest first: the p_k nearest of the org's
-- vectors of that model, then those the read may see (a narrow filter leaves fewer). Dynamic SQL:
-- the statement names the model and dimension count of its index.
CREATE FUNCTION cairn_recall_nearest(
  p_org uuid, p_model text, p_vector text, p_k int, p_agent text, p_scope text, p_proj text,
  p_all boolean, p_kinds text[], p_tags text[], p_author text, p_since timestamptz, p_until timestamptz
) RETURNS uuid[] LANGUAGE plpgsql
SET hnsw.ef_search = 100 SET hnsw.iterative_scan = 'relaxed_order' AS $$
DECLARE
  v_dims int := cardinality(string_to_array(btrim(p_vector, '[] '), ','));
  v_ids uuid[];
BEGIN
  IF to_regclass('entry_vectors') IS NULL OR p_model IS NULL OR v_dims IS NULL THEN
    RETURN NULL;
  END IF;
  EXECUTE format($q$
    SELECT array_agg(n.entry_id ORDER BY n.distance, n.entry_id DESC) FROM (
      SELECT v.entry_id, (v.embedding::vector(%1$s)) <=> $1::vector(%1$s) AS distance
      FROM entry_vectors v WHERE v.org_id = $2 AND v.model = %2$L
      ORDER BY (v.embedding::vector(%1$s)) <=> $1::vector(%1$s) LIMIT $3) n
    JOIN entries e ON e.org_id = $2 AND e.id = n.entry_id
    WHERE cairn_recall_visible(e, $4, $5, $6, $7, $8, $9, $10, $11, $12)$q$, v_dims, p_model)
    INTO v_ids
    USING p_vector, p_org, p_k, p_agent, p_scope, p_proj, p_all, p_kinds, p_tags, p_author, p_since, p_until;
  RETURN v_ids;
EXCEPTION WHEN others THEN -- recall goes on lexically
  RAISE WARNING 'cairn: semantic recall skipped: %', SQLERRM;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- The ranking for a reader of an org (an agent through cairn_recall, the dashboard through
-- cairn_dash_recall). Generic plans: the ranking statements take milliseconds to plan, longer than
-- they run; each is written so that one plan fits every call (index walks bounded by LIMIT,
-- lookups by key).
CREATE FUNCTION cairn_recall_for(p_org uuid, p_agent text, p_project text, p_args jsonb)
RETURNS json LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan AS $$
DECLARE
  v_org uuid := p_org;
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
  v_rescore int := greatest(30, v_limit);
  v_cap constant int := 250;
  v_budget constant int := 2000;
  v_sources constant int := 5;
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
  v_near uuid[];
  v_hits json;
BEGIN
  IF v_query = '' THEN
    RETURN json_build_object('hits', cairn_recall_recent(v_org, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags,
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

  -- phase 2: the candidates the read may see, scored in full, best first
  IF v_cand IS NOT NULL THEN
    SELECT array_agg(c.id ORDER BY c.score DESC, c.id DESC), array_agg(c.score ORDER BY c.score DESC, c.id DESC),
           array_agg(c.project_key ORDER BY c.score DESC, c.id DESC)
      INTO v_ids, v_scores, v_project_keys
      FROM (SELECT e.id, e.project_key, cairn_recall_score(v_org, e.id, e.search, v_terms, v_idf, v_idents, v_avgdl) AS score
            FROM entries e WHERE e.org_id = v_org AND e.id = ANY(v_cand) AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until)
            OFFSET 0) c; -- a fence: flattened, the score would be computed once per aggregate
  END IF;

  -- phase 3: context from the neighbours of the best v_sources
  IF v_ids IS NOT NULL THEN
    WITH near AS (
      -- the two nearest visible entries on either side in the same project, among the four nearest:
      -- four steps on entries_org_project_id_idx whatever the filters (visibility and the project are
      -- judged on the rows read, so no estimate can turn the walk into a scan; the row comparison is a
      -- condition only that index serves, so no statistics can send it through another org's rows)
      SELECT x.id, x.source_score, row_number() OVER (
               PARTITION BY x.source, x.before ORDER BY CASE WHEN x.before THEN x.id END DESC, x.id) AS distance
      FROM (SELECT s.id AS source, s.score AS source_score, n.id, n.before, n.visible
            FROM unnest(v_ids[1:v_sources], v_scores[1:v_sources], v_project_keys[1:v_sources]) AS s(id, score, project_key)
            CROSS JOIN LATERAL (
              (SELECT e.id, true AS before, e.project_key = s.project_key
                 AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until) AS visible
               FROM entries e WHERE e.org_id = v_org AND (e.project_key, e.id) < (s.project_key, s.id)
               ORDER BY e.project_key DESC, e.id DESC LIMIT 4)
              UNION ALL
              (SELECT e.id, false, e.project_key = s.project_key
                 AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until)
               FROM entries e WHERE e.org_id = v_org AND (e.project_key, e.id) > (s.project_key, s.id)
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
      GROUP BY r.id ORDER BY max(r.score) DESC, r.id DESC LIMIT v_rescore
    )
    SELECT array_agg(r.id ORDER BY r.score DESC, r.id DESC), array_agg(r.score ORDER BY r.score DESC, r.id DESC)
      INTO v_ids, v_scores FROM ranked r;
  END IF;

  -- semantic recall, when the service sends the query's vector: the entries nearest to it, fused
  -- with the lexical ranking by reciprocal rank (k = 60); each list counts alike
  IF p_args ? 'embedding' THEN
    v_near := cairn_recall_nearest(v_org, p_args->>'embedding_model', p_args->>'embedding', v_rescore,
      p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until);
  END IF;
  IF v_near IS NOT NULL THEN
    SELECT array_agg(f.id ORDER BY f.score DESC, f.id DESC), array_agg(f.score ORDER BY f.score DESC, f.id DESC)
      INTO v_ids, v_scores
      FROM (SELECT x.id, sum(1.0::float8 / (60 + x.rank)) AS score FROM (
              SELECT u.id, u.rank FROM unnest(v_ids) WITH ORDINALITY AS u(id, rank)
              UNION ALL
              SELECT u.id, u.rank FROM unnest(v_near) WITH ORDINALITY AS u(id, rank)) x
            GROUP BY x.id ORDER BY sum(1.0::float8 / (60 + x.rank)) DESC, x.id DESC LIMIT v_limit) f;
  END IF;

  SELECT coalesce(json_agg(cairn_hit_json(e, r.score) ORDER BY r.rank), '[]'::json)
    INTO v_hits
    FROM unnest(v_ids[1:v_limit], v_scores[1:v_limit]) WITH ORDINALITY AS r(id, score, rank)
    JOIN entries e ON e.org_id = v_org AND e.id = r.id;
  RETURN json_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_recall(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS json LANGUAGE plpgsql AS $$
BEGIN
  RETURN cairn_recall_for(cairn_auth(p_key_hash), p_agent, p_project, p_args);
END $$;
--> statement-breakpoint
-- Backfill (`cairn embed`): a page of the org's entries that have no vector in a space, by id.
CREATE FUNCTION cairn_admin_unembedded(p_org uuid, p_model text, p_after uuid, p_limit int)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  v_entries jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  IF to_regclass('entry_vectors') IS NULL THEN
    RAISE EXCEPTION 'the database holds no vectors: configure CAIRN_EMBEDDINGS and run cairn migrate' USING ERRCODE = 'CN409';
  END IF;
  SELECT coalesce(jsonb_agg(cairn_entry_json(e) ORDER BY e.id), '[]'::jsonb) INTO v_entries
    FROM (SELECT * FROM entries e
          WHERE e.org_id = p_org AND e.id > coalesce(p_after, '00000000-0000-0000-0000-000000000000'::uuid)
            AND NOT EXISTS (SELECT 1 FROM entry_vectors v WHERE v.entry_id = e.id AND v.model = p_model)
          ORDER BY e.id LIMIT p_limit) e;
  RETURN v_entries;
END $$;
--> statement-breakpoint
-- Backfill: stores vectors ([{id, vector}]) for entries of the org; returns how many it stored.
CREATE FUNCTION cairn_admin_put_vectors(p_org uuid, p_model text, p_items jsonb)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE
  v_count int;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO entry_vectors (entry_id, model, org_id, embedding)
    SELECT e.id, p_model, e.org_id, (i->>'vector')::vector
    FROM jsonb_array_elements(p_items) AS i JOIN entries e ON e.org_id = p_org AND e.id = (i->>'id')::uuid
    ON CONFLICT (entry_id, model) DO UPDATE SET embedding = EXCLUDED.embedding;
  GET DIAGNOSTICS v_count = ROW_COUNT;
  RETURN v_count;
END $$;
