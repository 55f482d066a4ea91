-- Recall ranked like BM25, inside Postgres, index-backed under row-level security.
--
-- postings is recall's inverted index (org, lexeme, project, entry), plus one row per identifier or path an
-- entry names ('#' + the identifier). term_stats and entry_stats hold per-org document
-- frequencies and lengths. Triggers on entries keep all three; each trigger locks the org's
-- entry_stats row first, so concurrent writers of one org never deadlock on term rows.
-- Postgres will not use a GIN index through @@ or && under row-level security (those operators
-- are not leakproof), so the lookups here are B-tree equality on text and uuid, which are.

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON term_stats, postings TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE ON entry_stats TO cairn_app';
  END IF;
END $$;
--> statement-breakpoint
ALTER TABLE postings ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE postings FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY postings_isolation ON postings USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE term_stats ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE term_stats FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY term_stats_isolation ON term_stats USING (org_id = cairn_org());
--> statement-breakpoint
ALTER TABLE entry_stats ENABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE entry_stats FORCE ROW LEVEL SECURITY;
--> statement-breakpoint
CREATE POLICY entry_stats_isolation ON entry_stats USING (org_id = cairn_org());
--> statement-breakpoint
-- Identifiers and paths, whole and lower-cased: tokens with _ . / : # @ - inside, camelCase, or
-- letters mixed with digits (scripts/deploy.sh, useEffect, ERR_CODE_42, v2.1).
CREATE FUNCTION cairn_idents(p text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT lower(m[1])), '{}'::text[])
  FROM regexp_matches(coalesce(p, ''), '([A-Za-z0-9_][A-Za-z0-9_./:#@-]*[A-Za-z0-9_])', 'g') AS m
  WHERE length(m[1]) BETWEEN 3 AND 200
    AND m[1] ~ '[_./:#@-]|[a-z][A-Z]|[A-Za-z][0-9]|[0-9][A-Za-z]'
$$;
--> statement-breakpoint
-- The keys an entry is found by: its lexemes, and '#' + each identifier it names.
CREATE FUNCTION cairn_entry_keys(p_search tsvector, p_title text, p_content text, p_rationale text)
RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT tsvector_to_array(p_search) || ARRAY(
    SELECT '#' || i FROM unnest(cairn_idents(coalesce(p_title, '') || ' ' || p_content || ' ' || coalesce(p_rationale, ''))) AS i)
$$;
--> statement-breakpoint
CREATE FUNCTION cairn_entry_index() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
BEGIN
  PERFORM 1 FROM entry_stats WHERE org_id = v_org FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (v_org, 0, 0) ON CONFLICT DO NOTHING;
    PERFORM 1 FROM entry_stats WHERE org_id = v_org FOR UPDATE;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    DELETE FROM postings WHERE org_id = v_org AND project = coalesce(OLD.project, '') AND entry_id = OLD.id
      AND lexeme = ANY(cairn_entry_keys(OLD.search, OLD.title, OLD.content, OLD.rationale));
    UPDATE term_stats t SET df = t.df - 1
      FROM unnest(tsvector_to_array(OLD.search)) AS l(lexeme)
      WHERE t.org_id = v_org AND t.lexeme = l.lexeme;
    UPDATE entry_stats SET docs = docs - 1, lexemes = lexemes - length(OLD.search) WHERE org_id = v_org;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO postings (org_id, lexeme, project, entry_id)
      SELECT v_org, k, coalesce(NEW.project, ''), NEW.id
      FROM unnest(cairn_entry_keys(NEW.search, NEW.title, NEW.content, NEW.rationale)) AS k
      ON CONFLICT DO NOTHING;
    INSERT INTO term_stats (org_id, lexeme, df)
      SELECT v_org, l, 1 FROM unnest(tsvector_to_array(NEW.search)) AS l ORDER BY l
      ON CONFLICT (org_id, lexeme) DO UPDATE SET df = term_stats.df + 1;
    UPDATE entry_stats SET docs = docs + 1, lexemes = lexemes + length(NEW.search) WHERE org_id = v_org;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputes an org's recall index and statistics from its entries (after a bulk load, or to repair).
CREATE FUNCTION cairn_rebuild_recall_index(p_org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  DELETE FROM postings WHERE org_id = p_org;
  INSERT INTO postings (org_id, lexeme, project, entry_id)
    SELECT DISTINCT p_org, k, coalesce(e.project, ''), e.id
    FROM entries e, unnest(cairn_entry_keys(e.search, e.title, e.content, e.rationale)) AS k
    WHERE e.org_id = p_org
    ORDER BY 2, 3, 4; -- in index order: the B-tree grows at its right edge
  DELETE FROM term_stats WHERE org_id = p_org;
  INSERT INTO term_stats (org_id, lexeme, df)
    SELECT p_org, l, count(*) FROM entries e, unnest(tsvector_to_array(e.search)) AS l
    WHERE e.org_id = p_org GROUP BY l;
  INSERT INTO entry_stats (org_id, docs, lexemes)
    SELECT p_org, count(*), coalesce(sum(length(search)), 0) FROM entries WHERE org_id = p_org
    ON CONFLICT (org_id) DO UPDATE SET docs = excluded.docs, lexemes = excluded.lexemes;
END $$;
--> statement-breakpoint
DO $$
DECLARE
  v_org uuid;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  FOR v_org IN SELECT id FROM orgs LOOP
    PERFORM cairn_rebuild_recall_index(v_org);
  END LOOP;
  PERFORM set_config('cairn.operator', '', true);
END $$;
--> statement-breakpoint
CREATE TRIGGER entries_index_insert_delete AFTER INSERT OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION cairn_entry_index();
--> statement-breakpoint
CREATE TRIGGER entries_index_update AFTER UPDATE ON entries
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search) EXECUTE FUNCTION cairn_entry_index();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION cairn_admin_create_org(p_org uuid, p_name text, p_key jsonb, p_actor text)
RETURNS jsonb LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO orgs (id, name) VALUES (p_org, p_name);
  INSERT INTO ledger_heads (org_id, seq, hash) VALUES (p_org, 0, repeat('0', 64));
  INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (p_org, 0, 0);
  RETURN jsonb_build_object('org', jsonb_build_object('id', p_org, 'name', p_name),
    'key', cairn_admin_create_key(p_org, p_key, p_actor));
END $$;
--> statement-breakpoint
-- recall: the caller's visible entries ranked by BM25 over the query's lexemes (English
-- stemming, stop words dropped, any term may match; a term counts once per entry, as memories are
-- short; k1 = 1.2, b = 0.75, length in distinct lexemes), plus 4 per identifier or path the query
-- names exactly, newest first among equals. Empty query: the most recent entries.
--
-- Bounded work: candidates are the entries holding the query's rarest terms, taken in order of
-- rarity while their document frequencies add up to at most 500 (always the rarest term; beyond
-- 500 entries, the newest), and up to 500 entries naming the query's identifiers. Only those are
-- read and scored.
CREATE OR REPLACE FUNCTION cairn_recall(p_key_hash text, p_agent text, p_project text, p_args jsonb)
RETURNS jsonb LANGUAGE plpgsql AS $$
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
  v_cap constant int := 500;
  v_k1 constant float8 := 1.2;
  v_b constant float8 := 0.15;
  v_docs float8;
  v_avgdl float8;
  v_lex text[];
  v_terms tsquery[];
  v_idf float8[];
  v_df bigint[];
  v_pick text[];
  v_idents text[] := ARRAY(SELECT '#' || i FROM unnest(cairn_idents(v_query)) AS i);
  v_cand uuid[];
  v_hits jsonb;
BEGIN
  IF v_query = '' THEN
    SELECT coalesce(jsonb_agg(cairn_entry_json(r) || '{"score": 0}'::jsonb ORDER BY r.created_at DESC, r.id DESC), '[]'::jsonb)
      INTO v_hits
      FROM (SELECT * FROM entries e
            WHERE e.org_id = v_org
              AND cairn_in_scope(e.scope, e.project, e.agent, v_scope, v_proj, p_agent)
              AND (e.expires_at IS NULL OR e.expires_at > now())
              AND (v_all OR e.superseded_by IS NULL)
              AND (v_kinds IS NULL OR e.kind = ANY(v_kinds))
              AND (v_tags IS NULL OR e.tags && v_tags)
              AND (v_author IS NULL OR e.agent = v_author)
              AND (v_since IS NULL OR e.created_at >= v_since)
              AND (v_until IS NULL OR e.created_at < v_until)
            ORDER BY e.created_at DESC, e.id DESC LIMIT v_limit) r;
    RETURN jsonb_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope);
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
  SELECT array_agg(c.l) INTO v_pick
    FROM (SELECT u.l, u.ord, sum(u.df) OVER (ORDER BY u.ord) AS cum
          FROM unnest(v_lex, v_df) WITH ORDINALITY AS u(l, df, ord)) c
    WHERE c.ord = 1 OR c.cum <= v_cap;

  -- Each key is read newest first (entry ids are UUIDv7, time-ordered), at most v_cap entries,
  -- within the read's projects: a project read reads its project's keys and the org-wide ones
  -- straight off the index; an org read reads every project's.
  IF v_scope = 'org' OR v_proj IS NULL THEN
    SELECT array_agg(DISTINCT x.entry_id) INTO v_cand
      FROM unnest(coalesce(v_pick, '{}'::text[]) || v_idents) AS k(key)
      CROSS JOIN LATERAL (SELECT p.entry_id FROM postings p WHERE p.org_id = v_org AND p.lexeme = k.key
                          ORDER BY p.entry_id DESC LIMIT v_cap) x;
  ELSE
    SELECT array_agg(DISTINCT x.entry_id) INTO v_cand
      FROM unnest(coalesce(v_pick, '{}'::text[]) || v_idents) AS k(key)
      CROSS JOIN unnest(ARRAY[v_proj, '']) AS pr(project)
      CROSS JOIN LATERAL (SELECT p.entry_id FROM postings p
                          WHERE p.org_id = v_org AND p.lexeme = k.key AND p.project = pr.project
                          ORDER BY p.entry_id DESC LIMIT v_cap) x;
  END IF;
  IF v_cand IS NULL THEN
    RETURN jsonb_build_object('hits', '[]'::jsonb, 'project', v_proj, 'scope', v_scope);
  END IF;

  WITH scored AS (
    SELECT e.id, e.created_at,
      coalesce((SELECT sum(w.idf) FROM unnest(v_terms, v_idf) AS w(q, idf) WHERE e.search @@ w.q), 0)
        * (v_k1 + 1) / (1 + v_k1 * (1 - v_b + v_b * length(e.search) / v_avgdl))
      + CASE WHEN cardinality(v_idents) = 0 THEN 0 ELSE 4 * (SELECT count(*) FROM postings p
             WHERE p.org_id = v_org AND p.entry_id = e.id AND p.lexeme = ANY(v_idents)) END AS score
    FROM entries e
    WHERE e.org_id = v_org AND e.id = ANY(v_cand)
      AND cairn_in_scope(e.scope, e.project, e.agent, v_scope, v_proj, p_agent)
      AND (e.expires_at IS NULL OR e.expires_at > now())
      AND (v_all OR e.superseded_by IS NULL)
      AND (v_kinds IS NULL OR e.kind = ANY(v_kinds))
      AND (v_tags IS NULL OR e.tags && v_tags)
      AND (v_author IS NULL OR e.agent = v_author)
      AND (v_since IS NULL OR e.created_at >= v_since)
      AND (v_until IS NULL OR e.created_at < v_until)
    ORDER BY score DESC, e.created_at DESC, e.id DESC
    LIMIT v_limit
  )
  SELECT coalesce(jsonb_agg(cairn_entry_json(e) || jsonb_build_object('score', round(s.score::numeric, 4))
      ORDER BY s.score DESC, s.created_at DESC, s.id DESC), '[]'::jsonb)
    INTO v_hits
    FROM scored s JOIN entries e ON e.org_id = v_org AND e.id = s.id;
  RETURN jsonb_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope);
END $$;
