-- Recall ranked like BM25, inside Postgres, bounded work per query.
--
-- term_stats / entry_stats hold per-org document frequencies and lengths, kept by triggers on
-- entries (the org's entry_stats row is locked first, so concurrent writers of one org never
-- deadlock on term rows). cairn_recall scores candidates with BM25 (k1 = 1.2, b = 0.75, length in
-- distinct lexemes) plus a boost per identifier or path the query names exactly; candidates come
-- from the GIN indexes through the query's rarest terms (see cairn_recall).

DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT SELECT, INSERT, UPDATE, DELETE ON term_stats TO cairn_app';
    EXECUTE 'GRANT SELECT, INSERT, UPDATE ON entry_stats TO cairn_app';
  END IF;
END $$;
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
CREATE FUNCTION cairn_entry_idents() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.idents := cairn_idents(coalesce(NEW.title, '') || ' ' || NEW.content || ' ' || coalesce(NEW.rationale, ''));
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_entry_stats() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  v_org uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.org_id ELSE NEW.org_id END;
BEGIN
  PERFORM 1 FROM entry_stats WHERE org_id = v_org FOR UPDATE;
  IF NOT FOUND THEN
    INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (v_org, 0, 0) ON CONFLICT DO NOTHING;
    PERFORM 1 FROM entry_stats WHERE org_id = v_org FOR UPDATE;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    UPDATE term_stats t SET df = t.df - 1
      FROM unnest(tsvector_to_array(OLD.search)) AS l(lexeme)
      WHERE t.org_id = v_org AND t.lexeme = l.lexeme;
    UPDATE entry_stats SET docs = docs - 1, lexemes = lexemes - length(OLD.search) WHERE org_id = v_org;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO term_stats (org_id, lexeme, df)
      SELECT v_org, l, 1 FROM unnest(tsvector_to_array(NEW.search)) AS l ORDER BY l
      ON CONFLICT (org_id, lexeme) DO UPDATE SET df = term_stats.df + 1;
    UPDATE entry_stats SET docs = docs + 1, lexemes = lexemes + length(NEW.search) WHERE org_id = v_org;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputes an org's recall statistics from its entries (after a bulk load, or to repair).
CREATE FUNCTION cairn_rebuild_recall_stats(p_org uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  UPDATE entries SET idents = cairn_idents(coalesce(title, '') || ' ' || content || ' ' || coalesce(rationale, ''))
    WHERE org_id = p_org;
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
    PERFORM cairn_rebuild_recall_stats(v_org);
  END LOOP;
  PERFORM set_config('cairn.operator', '', true);
END $$;
--> statement-breakpoint
CREATE TRIGGER entries_idents BEFORE INSERT OR UPDATE OF title, content, rationale ON entries
  FOR EACH ROW EXECUTE FUNCTION cairn_entry_idents();
--> statement-breakpoint
CREATE TRIGGER entries_stats_insert_delete AFTER INSERT OR DELETE ON entries
  FOR EACH ROW EXECUTE FUNCTION cairn_entry_stats();
--> statement-breakpoint
CREATE TRIGGER entries_stats_update AFTER UPDATE ON entries
  FOR EACH ROW WHEN (OLD.search IS DISTINCT FROM NEW.search) EXECUTE FUNCTION cairn_entry_stats();
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
-- stemming, stop words dropped, any term may match), plus 4 per identifier or path the query
-- names exactly, newest first among equals. Empty query: the most recent entries.
--
-- Bounded work: candidates are the entries holding the query's rarest terms, taken in order of
-- rarity while their document frequencies add up to at most 2,000 (always at least the rarest
-- term), plus exact identifier matches, at most 2,000 of them, newest first; every candidate is
-- then scored with all the query's terms.
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
  v_cap constant int := 2000;
  v_k1 constant float8 := 1.2;
  v_b constant float8 := 0.75;
  v_docs float8;
  v_avgdl float8;
  v_lex text[];
  v_idf float8[];
  v_df bigint[];
  v_tsq tsquery;
  v_idents text[] := cairn_idents(v_query);
  v_hits jsonb;
BEGIN
  IF v_query <> '' THEN
    SELECT greatest(docs, 1), CASE WHEN docs > 0 THEN greatest(lexemes::float8 / docs, 1) ELSE 1 END
      INTO v_docs, v_avgdl FROM entry_stats WHERE org_id = v_org;
    SELECT array_agg(s.l ORDER BY s.df, s.l),
           array_agg(ln(1 + (v_docs - s.df + 0.5) / (s.df + 0.5)) ORDER BY s.df, s.l),
           array_agg(s.df ORDER BY s.df, s.l)
      INTO v_lex, v_idf, v_df
      FROM (SELECT q.l, t.df FROM unnest(tsvector_to_array(to_tsvector('english', v_query))) AS q(l)
            JOIN term_stats t ON t.org_id = v_org AND t.lexeme = q.l AND t.df > 0) s;
    SELECT string_agg(quote_literal(c.l), ' | ')::tsquery INTO v_tsq
      FROM (SELECT u.l, u.ord, sum(u.df) OVER (ORDER BY u.ord) AS cum
            FROM unnest(v_lex, v_df) WITH ORDINALITY AS u(l, df, ord)) c
      WHERE c.ord = 1 OR c.cum <= v_cap;
    IF v_tsq IS NULL AND cardinality(v_idents) = 0 THEN
      RETURN jsonb_build_object('hits', '[]'::jsonb, 'project', v_proj, 'scope', v_scope);
    END IF;
  END IF;

  WITH cand AS (
    SELECT e AS ent FROM entries e
    WHERE e.org_id = v_org
      AND (v_query = ''
        OR (v_tsq IS NOT NULL AND e.search @@ v_tsq)
        OR (cardinality(v_idents) > 0 AND e.idents && v_idents))
      AND cairn_in_scope(e.scope, e.project, e.agent, v_scope, v_proj, p_agent)
      AND (e.expires_at IS NULL OR e.expires_at > now())
      AND (v_all OR e.superseded_by IS NULL)
      AND (v_kinds IS NULL OR e.kind = ANY(v_kinds))
      AND (v_tags IS NULL OR e.tags && v_tags)
      AND (v_author IS NULL OR e.agent = v_author)
      AND (v_since IS NULL OR e.created_at >= v_since)
      AND (v_until IS NULL OR e.created_at < v_until)
    ORDER BY e.created_at DESC, e.id DESC
    LIMIT CASE WHEN v_query = '' THEN v_limit ELSE v_cap END
  ), scored AS (
    SELECT c.ent,
      CASE WHEN v_query = '' THEN 0 ELSE
        coalesce((SELECT sum(w.idf * (t.tf * (v_k1 + 1))
                    / (t.tf + v_k1 * (1 - v_b + v_b * length((c.ent).search) / v_avgdl)))
                  FROM unnest((c.ent).search) AS u
                  JOIN unnest(v_lex, v_idf) AS w(l, idf) ON w.l = u.lexeme
                  CROSS JOIN LATERAL (SELECT coalesce(array_length(u.positions, 1), 1)::float8 AS tf) t), 0)
        + 4 * cardinality(ARRAY(SELECT unnest((c.ent).idents) INTERSECT SELECT unnest(v_idents)))
      END AS score
    FROM cand c
  ), ranked AS (
    SELECT s.ent, s.score,
      row_number() OVER (ORDER BY s.score DESC, (s.ent).created_at DESC, (s.ent).id DESC) AS rn
    FROM scored s
  )
  SELECT coalesce(jsonb_agg(cairn_entry_json(r.ent) || jsonb_build_object('score', round(r.score::numeric, 4))
      ORDER BY r.rn), '[]'::jsonb)
    INTO v_hits
    FROM ranked r WHERE r.rn <= v_limit;
  RETURN jsonb_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope);
END $$;
