-- The ranking for a reader of an org (an agent through cairn_recall, the dashboard through
-- cairn_dash_recall). Generic plans: the ranking statements take milliseconds to plan, longer than
-- they run; each is written so that one plan fits every call (index walks bounded by LIMIT,
-- lookups by key). JIT compilation is off: the generic plans' estimates of a large org's bounded
-- walks pass jit_above_cost, and compiling them cost 30–70 ms a call at 1M entries, against 2–4 ms
-- of work (every tool function sets the same).
CREATE OR REPLACE FUNCTION public.cairn_recall_for(p_org uuid, p_agent text, p_project text, p_args jsonb)
 RETURNS json
 LANGUAGE plpgsql
 SET plan_cache_mode TO 'force_generic_plan'
 SET jit TO 'off'
AS $function$
DECLARE
  v_org uuid := p_org;
  v_proj text := cairn_read_project(v_org, p_project, p_agent);
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
  v_thread constant interval := interval '30 minutes';
  v_window constant int := 2;
  v_ref constant float8 := 0.5;
  v_ref_sources constant int := 3;
  v_ref_df constant int := 3;
  v_ref_tags constant int := 2;
  v_expansion constant float8 := 0.5;
  v_prefixes constant int := 8;
  v_kind_weight constant float8 := 1.25;
  v_recent constant float8 := 0.3;
  v_phrase constant float8 := 1;
  v_lead constant float8 := 0.5;
  v_floor constant float8 := 0.1;
  v_tie constant float8 := 0.3;
  v_part jsonb;
  v_found uuid[] := '{}';
  v_found_scores float8[] := '{}';
  v_lexes text[] := '{}';
  v_prefer text[];
  v_now boolean;
  v_groups int[];
  v_lead_terms tsquery[];
  v_pairs tsquery[];
  v_pair_weights float8[];
  v_docs float8;
  v_avgdl float8;
  v_lex text[];
  v_terms tsquery[];
  v_idf float8[];
  v_df bigint[];
  v_keys text[];
  v_weights float8[];
  v_idents text[];
  v_projects text[];
  v_private text[];
  v_cand uuid[];
  v_ids uuid[];
  v_scores float8[];
  v_near uuid[];
  v_hits json;
  v_anchored uuid[];
  v_at timestamptz := (p_args->>'as_of')::timestamptz;
  v_heir constant float8 := 1;
  v_gate boolean;
  v_evidence tsquery;
  v_evident boolean[];
  v_said tsquery;
  v_kind_words constant text[] := tsvector_to_array(to_tsvector('english', 'decision decided observed plan'));
  v_shown tsvector[];
  v_unheld json;
BEGIN
  -- as_of: the memory as it stood then (cairn_as_of, cairn_recall_visible, cairn_entry_at); the
  -- project read, for what replaced an org entry there (cairn_replacement)
  PERFORM set_config('cairn.as_of', coalesce(p_args->>'as_of', ''), true);
  PERFORM set_config('cairn.project', coalesce(v_proj, ''), true);
  -- paths: only the entries anchored to them or to a folder containing one (docs/design.md,
  -- "Anchors"), from the postings the reader may see; alone (empty query) fresh ones first, newest
  -- first; with a query, ranked by it
  IF p_args ? 'paths' THEN
    SELECT coalesce(array_agg(DISTINCT a.entry_id), '{}') INTO v_anchored FROM (
      SELECT p.entry_id FROM postings p
      WHERE p.org_id = v_org
        AND p.lexeme = ANY(cairn_anchor_keys(ARRAY(SELECT jsonb_array_elements_text(p_args->'paths'))))
        AND (left(p.project, 1) <> chr(1) OR starts_with(p.project, chr(1) || p_agent || chr(1)))
      LIMIT 1000) a;
    IF v_query = '' THEN
      RETURN json_build_object('hits', (
        SELECT coalesce(json_agg(cairn_hit_json(CASE WHEN v_at IS NULL THEN r.e ELSE cairn_entry_at(r.e) END, 0) ORDER BY r.stale, (r.e).created_at DESC, (r.e).id DESC), '[]'::json)
        FROM (SELECT e, cairn_entry_stale(e) IS NOT NULL AS stale FROM entries e
              WHERE e.org_id = v_org AND e.id = ANY(v_anchored)
                AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until, v_at)
              ORDER BY 2, e.created_at DESC, e.id DESC LIMIT v_limit) r), 'project', v_proj, 'scope', v_scope);
    END IF;
  END IF;
  IF v_query = '' THEN
    RETURN json_build_object('hits', cairn_recall_recent(v_org, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags,
      v_author, v_since, v_until, v_limit), 'project', v_proj, 'scope', v_scope);
  END IF;

  -- the statistics of the entries this reader may see: the org's shared ones and its own private
  -- ones (another agent's private entries weigh nothing: docs/design.md, "Private means absent")
  SELECT greatest(sum(docs), 1), CASE WHEN sum(docs) > 0 THEN greatest(sum(lexemes)::float8 / sum(docs), 1) ELSE 1 END
    INTO v_docs, v_avgdl FROM entry_stats WHERE org_id = v_org AND agent_key IN ('', coalesce(p_agent, ''));
  -- the projects the read sees: its own and the org-wide entries (''), or every project for an org
  -- read; an org of more than 64 projects is read across projects with a sort instead
  v_projects := CASE WHEN v_scope <> 'org' AND v_proj IS NOT NULL THEN ARRAY[v_proj, '']
    ELSE ARRAY(SELECT canonical FROM projects WHERE org_id = v_org LIMIT 65) || ''::text END;
  -- and the reader's own private partitions (cairn_posting_key): of the project and none, or of
  -- every project it keeps private entries in; no other agent's
  v_private := CASE WHEN p_agent IS NULL THEN '{}'::text[]
    WHEN v_scope <> 'org' AND v_proj IS NOT NULL
      THEN ARRAY[cairn_posting_key('agent', v_proj, p_agent), cairn_posting_key('agent', NULL, p_agent)]
    ELSE ARRAY(SELECT DISTINCT cairn_posting_key('agent', c.project_key, p_agent) FROM scope_counts c
               WHERE c.org_id = v_org AND c.scope = 'agent' AND c.agent_key = p_agent AND c.n > 0)
      || cairn_posting_key('agent', NULL, p_agent) END;

  -- a query of several sentences that each hold a telling word comes in parts (domain/query.ts
  -- queryParts), each ranked on its own as below; an entry scores its best part's score and 0.3 of
  -- its others' (v_tie, as Lucene's dis_max ties): a prompt asks in one sentence and frames the
  -- question in the rest ("I'm about to make some changes in this part of the codebase …"), and the
  -- framing's words are no evidence of an answer, yet an entry that answers two sentences still
  -- comes above one that answers one. A query of one part is ranked as it is.
  FOR v_part IN SELECT x.value FROM jsonb_array_elements(coalesce(p_args->'parts', jsonb_build_array(p_args - 'embedding'))) AS x LOOP
    v_query := coalesce(v_part->>'query', '');
    v_prefer := ARRAY(SELECT jsonb_array_elements_text(coalesce(v_part->'prefer_kinds', '[]')));
    v_now := coalesce((v_part->>'now')::boolean, false);
    v_idents := ARRAY(SELECT '#' || i FROM unnest(cairn_idents(v_query)) AS i);
    v_cand := NULL;
    v_ids := NULL;
    v_scores := NULL;
    v_evident := NULL;
    -- the query's terms (cairn_recall_terms), rarest first, each with its concept; and the evidence:
    -- when the service names the part's telling words ('evidence': its words less common
    -- English and the language of a request, and the vocabulary's phrases with what they stand for:
    -- domain/query.ts rankedQuery), a hit must hold one of their concepts — the word, a synonym or
    -- other form of it, or a longer word it begins — or be in the thread of a hit that does
    -- (v_evidence; v_gate). An entry that shares only "write", "way" and "example" with "write an
    -- example of a closure, the short way" is no answer to it. The other words still weigh in the
    -- score. Not in a read of what is anchored to paths: the paths chose the entries.
    v_gate := jsonb_array_length(coalesce(v_part->'evidence', '[]')) > 0 AND v_anchored IS NULL;
    WITH t AS (
      SELECT * FROM cairn_recall_terms(v_org, p_agent, v_query, v_part->'groups', v_expansion, v_prefixes)
    ), said AS (
      -- the words come split at punctuation and camelCase already (terms.ts wordsOf)
      SELECT tsvector_to_array(to_tsvector('english', string_agg(w, ' '))) AS l
      FROM jsonb_array_elements_text(CASE WHEN v_gate THEN v_part->'evidence' ELSE '[]' END) AS w
    ), told AS (
      SELECT DISTINCT t.term_group AS g FROM t, said
      WHERE t.lexeme = ANY(said.l)
         -- a phrase, by its words
         OR starts_with(t.lexeme, '''') AND (SELECT bool_and(m[1] = ANY(said.l))
                                            FROM regexp_matches(t.lexeme, '''([^'']+)''', 'g') AS m)
         OR EXISTS (SELECT 1 FROM unnest(said.l) AS w(l)
                    WHERE starts_with(t.lexeme, w.l) AND NOT EXISTS (SELECT 1 FROM t AS x WHERE x.lexeme = w.l)
                      -- as cairn_recall_terms expands them: not "pr" for "problem", nor "2" for "2024"
                      AND length(w.l) >= 3 AND w.l !~ '^[0-9]+$')
    )
    SELECT array_agg(t.lexeme ORDER BY t.df, t.lexeme),
           array_agg(t.q::tsquery ORDER BY t.df, t.lexeme),
           array_agg(t.weight * ln(1 + (v_docs - t.df + 0.5) / (t.df + 0.5)) ORDER BY t.df, t.lexeme),
           array_agg(t.df ORDER BY t.df, t.lexeme),
           array_agg(t.term_group ORDER BY t.df, t.lexeme),
           array_agg(CASE WHEN starts_with(t.lexeme, '''') THEN regexp_replace(t.q, '''([^'']+)''', '''\1'':A', 'g')
                          ELSE t.q || ':A' END::tsquery ORDER BY t.df, t.lexeme),
           string_agg(t.q, ' | ') FILTER (WHERE t.term_group IN (SELECT told.g FROM told))::tsquery,
           -- any of its terms: a neighbour says something of it; but the words that name a kind,
           -- which every entry of the kind holds (cairn_entry_vector; and domain/query.ts
           -- KIND_WORDS), say nothing of what it is about, unless the query has no other: "what did
           -- we decide about validation?" is not said by the decision written next
           coalesce(string_agg(t.q, ' | ') FILTER (WHERE t.lexeme <> ALL (v_kind_words)),
                    string_agg(t.q, ' | '))::tsquery
      INTO v_lex, v_terms, v_idf, v_df, v_groups, v_lead_terms, v_evidence, v_said
      -- a term as a query: a lexeme, or a phrase (cairn_recall_terms: its tsquery's text, quoted)
      FROM (SELECT t.*, CASE WHEN starts_with(t.lexeme, '''') THEN '(' || t.lexeme || ')'
                             ELSE quote_literal(t.lexeme) END AS q FROM t) t;
    -- the query's adjacent words, as phrases: an entry holding one as written gets a bonus
    WITH words AS (
      SELECT q.l, q.p, row_number() OVER (ORDER BY q.p) AS n, t.w
      FROM (SELECT u.lexeme AS l, u.positions[1] AS p FROM unnest(to_tsvector('english', v_query)) AS u) q
      JOIN unnest(v_lex, v_idf) AS t(l, w) ON t.l = q.l
    )
    SELECT coalesce(array_agg(format('%s <%s> %s', quote_literal(a.l), b.p - a.p, quote_literal(b.l))::tsquery), '{}'),
           coalesce(array_agg(least(a.w, b.w)), '{}')
      INTO v_pairs, v_pair_weights
      FROM words a JOIN words b ON b.n = a.n + 1 AND b.p - a.p <= 3;
    -- a phrase is looked up by its words
    SELECT coalesce(array_agg(c.l ORDER BY c.ord), '{}') || v_idents,
           coalesce(array_agg(c.idf ORDER BY c.ord), '{}') || array_fill(4::float8, ARRAY[cardinality(v_idents)])
      INTO v_keys, v_weights
      FROM (SELECT w.l, u.idf, u.ord, sum(u.df) OVER (ORDER BY u.ord) AS cum
            FROM unnest(v_lex, v_idf, v_df) WITH ORDINALITY AS u(l, idf, df, ord)
            CROSS JOIN LATERAL (SELECT u.l WHERE NOT starts_with(u.l, '''')
                                UNION ALL
                                SELECT m[1] FROM regexp_matches(u.l, '''([^'']+)''', 'g') AS m
                                WHERE starts_with(u.l, '''')) w) c
      WHERE c.ord = 1 OR c.cum <= v_budget;
    -- phase 1: entry ids are UUIDv7, so newest first is id order, per project straight off the index
    IF cardinality(v_projects) <= 65 THEN
      SELECT array_agg(r.entry_id ORDER BY r.w DESC, r.entry_id DESC) INTO v_cand FROM (
        SELECT x.entry_id, sum(k.w) AS w FROM unnest(v_keys, v_weights) AS k(key, w)
        CROSS JOIN LATERAL (
          SELECT y.entry_id FROM unnest(v_projects || v_private) AS pr(project)
          CROSS JOIN LATERAL (SELECT p.entry_id FROM postings p
                              WHERE p.org_id = v_org AND p.lexeme = k.key AND p.project = pr.project
                              ORDER BY p.entry_id DESC LIMIT v_cap) y
          ORDER BY y.entry_id DESC LIMIT v_cap) x
        GROUP BY x.entry_id ORDER BY sum(k.w) DESC, x.entry_id DESC LIMIT v_rescore) r;
    ELSE
      SELECT array_agg(r.entry_id ORDER BY r.w DESC, r.entry_id DESC) INTO v_cand FROM (
        SELECT x.entry_id, sum(k.w) AS w FROM unnest(v_keys, v_weights) AS k(key, w)
        CROSS JOIN LATERAL (SELECT p.entry_id FROM postings p WHERE p.org_id = v_org AND p.lexeme = k.key
                              AND (left(p.project, 1) <> chr(1) OR p.project = ANY(v_private))
                            ORDER BY p.entry_id DESC LIMIT v_cap) x
        GROUP BY x.entry_id ORDER BY sum(k.w) DESC, x.entry_id DESC LIMIT v_rescore) r;
    END IF;

    IF v_anchored IS NOT NULL THEN
      v_cand := v_anchored;
    END IF;

    -- phase 2: the candidates the read may see, scored in full, best first. A candidate that has
    -- been replaced lends v_heir × its score to its replacement (cairn_recall_heir), whether the
    -- read shows it (include_superseded) or not: the current word on what it was about; an entry
    -- keeps the larger of its own score and the loans. Not in a read of what is anchored to paths:
    -- the replacement need not be.
    IF v_gate AND v_evidence IS NULL THEN
      v_cand := NULL; -- no entry the reader may see holds a telling word
    END IF;
    IF v_cand IS NOT NULL THEN
      SELECT array_agg(h.id ORDER BY h.score DESC, h.id DESC), array_agg(h.score ORDER BY h.score DESC, h.id DESC),
             array_agg(h.evident ORDER BY h.score DESC, h.id DESC)
        INTO v_ids, v_scores, v_evident
        FROM (SELECT g.id, bool_or(s.evident) AS evident, max(s.score * g.w) AS score
              FROM (SELECT c.id, c.heir, c.current, NOT v_gate OR coalesce(c.search @@ v_evidence, false) AS evident,
                           cairn_recall_score(v_org, c.id, cairn_posting_key(c.scope, c.project, c.agent), c.search, v_terms, v_idf, v_groups, v_idents, v_avgdl)
                             * CASE WHEN c.kind = ANY(v_prefer) THEN v_kind_weight ELSE 1 END
                             -- asked for the state things are in now ("… now?", "still", "current"):
                             -- the later of the candidates (written, or written again: confirmed),
                             -- up to 1 + v_recent for the latest, the current word on what the
                             -- earlier ones said
                             * CASE WHEN v_now THEN 1 + v_recent * c.recency ELSE 1 END
                             + v_phrase * (SELECT coalesce(sum(p.w), 0) FROM unnest(v_pairs, v_pair_weights) AS p(q, w)
                                           WHERE c.search @@ p.q)
                             + v_lead * (SELECT coalesce(sum(l.w), 0) FROM unnest(v_lead_terms, v_idf) AS l(q, w)
                                         WHERE c.search @@ l.q) AS score
                    FROM (SELECT v.*, CASE WHEN (NOT v.current OR v_all) AND v_anchored IS NULL AND cairn_replacement(v.e) IS NOT NULL
                            THEN cairn_recall_heir(v.e, p_agent, v_scope, v_proj, v_kinds, v_tags, v_author, v_since, v_until, v_at) END AS heir
                          FROM (SELECT e.id, e.kind, e.search, e.scope, e.project, e.agent, e,
                                       percent_rank() OVER (ORDER BY greatest(e.created_at, e.confirmed_at), e.id) AS recency,
                                       cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until, v_at) AS current
                                FROM entries e WHERE e.org_id = v_org AND e.id = ANY(v_cand)
                                  -- the read's scope and time: a replaced entry lends whatever the filters, its heir must pass them
                                  AND cairn_recall_visible(e, p_agent, v_scope, v_proj, true, NULL, NULL, NULL, NULL, NULL, v_at)
                                OFFSET 0) v
                          OFFSET 0) c -- fences: flattened, the score and the heir would be computed more than once a row
                    WHERE c.current OR c.heir IS NOT NULL
                    OFFSET 0) s
              -- the entry itself where the read shows it, and its heir
              CROSS JOIN LATERAL (VALUES (CASE WHEN s.current THEN s.id END, 1::float8), (s.heir, v_heir)) AS g(id, w)
              WHERE g.id IS NOT NULL
              GROUP BY g.id) h;
    END IF;

    -- phase 3: context from the threads of work of the best v_sources, and by reference from the best
    -- v_ref_sources (not when the read asked for what is anchored to paths: context need not be)
    IF v_ids IS NOT NULL AND v_anchored IS NULL THEN
      WITH near AS (
        -- a hit's thread of work: the entries the same agent wrote in the same project right before and
        -- after it — among the org's v_window nearest writes on either side that the reader could see
        -- (another agent's private entries are stepped over as if absent), and within v_thread — read
        -- as its context (a reply, the fix after a failure). Parallel agents' writes in between end a
        -- thread. The order is the ids': the service makes a write's id as the write arrives, while
        -- writes sent together start their transactions in whatever order the pool's connections come
        -- free, so created_at would scramble a thread written in parallel. A walk of v_window steps on
        -- entries_org_id_idx whatever the filters (the primary key alone would walk other orgs' rows).
        SELECT x.id, x.source_score, x.source_evident, x.says, x.asks AND NOT x.before AS answers, x.apart, row_number() OVER w AS distance,
               x.asks OR bool_or(x.questions) OVER w AS exchange
        FROM (SELECT s.id AS source, s.score AS source_score, s.evident AS source_evident,
                     n.id, n.before, n.visible, n.says, src.content ~ '\?\s*$' AS asks, n.questions,
                     n.tags <> '{}' AND src.tags <> '{}' AND cairn_tags_shared(n.tags, src.tags) = 0 AS apart
              FROM unnest(v_ids[1:v_sources], v_scores[1:v_sources], v_evident[1:v_sources]) AS s(id, score, evident)
              JOIN entries src ON src.org_id = v_org AND src.id = s.id
              CROSS JOIN LATERAL (
                (SELECT e.id, e.tags, true AS before, e.search @@ v_said AS says, e.content ~ '\?\s*$' AS questions,
                   e.project_key = src.project_key AND e.agent = src.agent
                   AND e.created_at >= src.created_at - v_thread
                   AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until, v_at) AS visible
                 FROM entries e WHERE e.org_id = v_org AND e.id < src.id
                   AND (e.scope <> 'agent' OR e.agent = p_agent)
                 ORDER BY e.id DESC LIMIT v_window)
                UNION ALL
                (SELECT e.id, e.tags, false, e.search @@ v_said, e.content ~ '\?\s*$',
                   e.project_key = src.project_key AND e.agent = src.agent
                   AND e.created_at <= src.created_at + v_thread
                   AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until, v_at)
                 FROM entries e WHERE e.org_id = v_org AND e.id > src.id
                   AND (e.scope <> 'agent' OR e.agent = p_agent)
                 ORDER BY e.id LIMIT v_window)) n
              WHERE s.score > 0) x
        WHERE x.visible
        WINDOW w AS (PARTITION BY x.source, x.before ORDER BY CASE WHEN x.before THEN x.id END DESC, x.id)
      ), boosts AS (
        -- the next write lends v_context, the one after v_context2, when it holds a term of the
        -- query: an agent's next write on another topic is no answer ("JNI crash report from a user
        -- on Windows" after the driver's type mapping, to "minimum JDK for the driver?"; the lunch
        -- order after the database decision, to "what did we decide about the database?"). In an
        -- exchange, a question among the writes from the hit to it (both included), one that holds
        -- none lends too, as if a step further away (× v_context2 / v_context): a reply need repeat no
        -- word of the question ("what did you name the puppy?" "we called him Biscuit"). A hit that
        -- ends in a question brings the writes after it a step nearer — the next lends all of its
        -- score, the one after v_context: what answers it comes next ("which Node does CI pin?" then
        -- "22.11, since the March bump"). One its writer labelled as another topic, both tagged and
        -- no tag in common, lends nothing (the coupon rule written after the pagination convention);
        -- a plan, untagged, still may
        SELECT n.id, max(n.source_score * CASE n.distance - CASE WHEN n.answers THEN 1 ELSE 0 END
                                            WHEN 0 THEN 1 WHEN 1 THEN v_context ELSE v_context2 END
                         * CASE WHEN n.says THEN 1 ELSE v_context2 / v_context END) AS boost,
               bool_or(n.source_evident) AS evident
        FROM near n WHERE n.distance <= 2 AND NOT n.apart AND (n.says OR n.exchange) GROUP BY n.id
      ), refs AS (
        -- what names an identifier or path a hit names, or carries two of its tags, that at most
        -- v_ref_df entries the reader's partitions hold (the identifier, one of the two tags) lends
        -- v_ref × the hit's score, whoever wrote it and when: the fix that names the failure's error
        -- code ("Fixed the TS2345 errors" after "Build failed … TS2345"), the change that names the
        -- job that failed, the fix its writer labelled as the failure ("mqtt", "connectivity" on
        -- the carrier's dropped trackers and on the keepalive change). A release number or a name
        -- of three characters or fewer is no reference (cairn_ref_keys), and one tag alone is a
        -- label many topics share ("api"). The key is made before the look-up (OFFSET 0): under row-level
        -- security a condition that concatenates is no index condition (|| is not leakproof), and
        -- the walk would read every posting of the org.
        SELECT r.entry_id AS id, max(s.score * v_ref) AS boost, bool_or(s.evident) AS evident
        FROM unnest(v_ids[1:v_ref_sources], v_scores[1:v_ref_sources], v_evident[1:v_ref_sources]) AS s(id, score, evident)
        JOIN entries src ON src.org_id = v_org AND src.id = s.id
        CROSS JOIN LATERAL (SELECT x AS key FROM unnest(cairn_ref_keys(src.content)) AS x
                            UNION ALL
                            SELECT t FROM unnest(cairn_tag_keys(src.tags)) AS t
                            WHERE cardinality(src.tags) >= v_ref_tags OFFSET 0) AS i
        CROSS JOIN LATERAL (SELECT array_agg(p.entry_id) AS ids
                            FROM (SELECT p.entry_id FROM postings p
                                  WHERE p.org_id = v_org AND p.lexeme = i.key
                                    AND (left(p.project, 1) <> chr(1) OR p.project = ANY(v_private))
                                  LIMIT v_ref_df + 1) p) k
        CROSS JOIN LATERAL unnest(k.ids) AS r(entry_id)
        JOIN entries e ON e.org_id = v_org AND e.id = r.entry_id
        WHERE s.score > 0 AND cardinality(k.ids) <= v_ref_df AND r.entry_id <> s.id
          AND (NOT starts_with(i.key, '@t:')
               OR cairn_tags_shared(e.tags, src.tags) >= v_ref_tags)
          AND cairn_recall_visible(e, p_agent, v_scope, v_proj, v_all, v_kinds, v_tags, v_author, v_since, v_until, v_at)
        GROUP BY r.entry_id
      ), ranked AS (
        SELECT r.id, max(r.score) AS score, bool_or(r.evident) AS evident FROM (
          -- a candidate keeps the larger of its own score and its boost; a neighbour that is not a
          -- candidate has the boost (had its own words weighed more, it would have been a candidate)
          SELECT u.id, u.score, u.evident FROM unnest(v_ids, v_scores, v_evident) AS u(id, score, evident)
          UNION ALL
          SELECT b.id, b.boost, b.evident FROM boosts b
          UNION ALL
          SELECT f.id, f.boost, f.evident FROM refs f
          ) r
        GROUP BY r.id ORDER BY max(r.score) DESC, r.id DESC LIMIT v_rescore
      )
      -- the ranking stands; what holds no telling word and is no context of a hit that does goes
      SELECT array_agg(r.id ORDER BY r.score DESC, r.id DESC), array_agg(r.score ORDER BY r.score DESC, r.id DESC)
        INTO v_ids, v_scores FROM ranked r WHERE r.evident;
    END IF;

    v_found := v_found || coalesce(v_ids, '{}');
    v_found_scores := v_found_scores || coalesce(v_scores, '{}');
    v_lexes := v_lexes || coalesce(v_lex, '{}');
  END LOOP;
  SELECT array_agg(f.id ORDER BY f.score DESC, f.id DESC), array_agg(f.score ORDER BY f.score DESC, f.id DESC)
    INTO v_ids, v_scores
    FROM (SELECT u.id, max(u.score) + v_tie * (sum(u.score) - max(u.score)) AS score
          FROM unnest(v_found, v_found_scores) AS u(id, score)
          GROUP BY u.id ORDER BY 2 DESC, u.id DESC LIMIT v_rescore) f;

  -- semantic recall, when the service sends the query's vector: the entries nearest to it, fused
  -- with the lexical ranking by reciprocal rank (k = 60); each list counts alike
  IF p_args ? 'embedding' AND v_anchored IS NULL THEN
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

  SELECT coalesce(json_agg(cairn_hit_json(CASE WHEN v_at IS NULL THEN e ELSE cairn_entry_at(e) END, r.score)
      ORDER BY r.rank), '[]'::json), array_agg(e.search)
    INTO v_hits, v_shown
    FROM unnest(v_ids[1:v_limit], v_scores[1:v_limit]) WITH ORDINALITY AS r(id, score, rank)
    JOIN entries e ON e.org_id = v_org AND e.id = r.id
    -- a page is not filled with what barely matches: a hit far below the best is left out
    WHERE v_near IS NOT NULL OR r.score >= v_floor * v_scores[1];
  -- the question's telling words (p_args->'telling', as written: terms.ts tellingWords) that no hit
  -- shown holds as recall matches them — the word, a part of it, a synonym or other form of it, a
  -- longer word it begins — so the reader knows what the hits do not speak of
  -- ("staging" when only "DB" was found); a word of stop words alone is left out. Not in a read
  -- as_of a time: the entries are matched by their text of now, shown as they were then.
  IF v_shown IS NOT NULL AND v_at IS NULL THEN
    WITH words AS MATERIALIZED (
      -- each word comes with the parts of an identifier or path and its synonyms and other forms
      -- (domain/query.ts rankedQuery): ["erlang/otp", "erlang", "otp"], ["rollout", "deploy", …]
      -- — a synonym of several words as a phrase, as recall matches it (cairn_recall_terms)
      SELECT w.ord, w.terms->>0 AS word, f.l, f.p
      FROM jsonb_array_elements(coalesce(p_args->'telling', '[]')) WITH ORDINALITY AS w(terms, ord)
      CROSS JOIN LATERAL (SELECT tsvector_to_array(to_tsvector('english', coalesce(string_agg(x.t, ' ') FILTER (WHERE x.q IS NULL), ''))) AS l,
                                 coalesce(array_agg('(' || x.q || ')') FILTER (WHERE x.q IS NOT NULL), '{}') AS p
                          FROM (SELECT t.t, CASE WHEN t.pos > 1 THEN cairn_phrase(t.t) END AS q
                                FROM jsonb_array_elements_text(w.terms) WITH ORDINALITY AS t(t, pos)) x) f
    ), asked AS MATERIALIZED (
      SELECT w.ord, w.word, (SELECT string_agg(x.q, ' | ')::tsquery FROM (
               SELECT quote_literal(unnest(w.l)) AS q
               UNION
               SELECT quote_literal(t.l) FROM unnest(v_lexes) AS t(l), unnest(w.l) AS y(l)
               WHERE starts_with(t.l, y.l) AND length(y.l) >= 3 AND y.l !~ '^[0-9]+$'
               UNION
               SELECT unnest(w.p)) x) AS q
      FROM words w WHERE cardinality(w.l) > 0 OR cardinality(w.p) > 0
    )
    SELECT json_agg(a.word ORDER BY a.ord) INTO v_unheld FROM asked a
    WHERE NOT EXISTS (SELECT 1 FROM unnest(v_shown) AS s(search) WHERE s.search @@ a.q);
  END IF;
  RETURN json_build_object('hits', v_hits, 'project', v_proj, 'scope', v_scope, 'unheld', coalesce(v_unheld, '[]'::json));
END $function$;
