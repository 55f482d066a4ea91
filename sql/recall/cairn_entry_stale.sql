-- Whether an anchored memory or decision may be stale, for the statement's reader: the newest
-- entry of the same kind (a memory after a memory, a decision after a decision) in its project
-- (shared, or the reader's own private one: another agent's private entries change nothing a
-- reader sees), written after the entry was (or was last confirmed: written again, deduplicated)
-- and by the time the read is as of (cairn_as_of), not expired, anchored to an overlapping path —
-- one of them contains the other. Observations, notes and plans never make another entry stale
-- nor are marked: a test result or a scratch note contradicts no convention. Returns {paths (the
-- entry's paths that overlap), since, by, entry, says (the newer entry's first words)} or NULL.
-- Index look-ups on postings (cairn_path_keys), a few per path.
CREATE OR REPLACE FUNCTION public.cairn_entry_stale(e entries)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_keys text[];
  n entries;
  v_reader text := nullif(current_setting('cairn.reader', true), '');
  -- the reader's own partition (cairn_posting_key), computed by an expression the planner inlines
  -- (in the query below a custom plan, cairn_recall_recent's, calls it; so does one given
  -- current_setting, which is not immutable, as its argument)
  v_mine text;
BEGIN
  -- most entries have no anchors: nothing to look up (an empty key list would still walk the
  -- project's postings)
  IF e.paths IS NULL OR cardinality(e.paths) = 0 OR e.kind NOT IN ('memory', 'decision') THEN
    RETURN NULL;
  END IF;
  v_mine := cairn_posting_key('agent', e.project, v_reader);
  v_keys := cairn_anchor_keys(e.paths) || ARRAY(SELECT '@a:' || q FROM unnest(e.paths) AS q);
  -- postings first, one index look-up per key and partition, whatever the statistics say (a fence:
  -- planned with a table's statistics from when it was small — a new org's first minutes, before
  -- upkeep, autovacuum may be off — a join over `lexeme = ANY(…)` read every posting of the org for
  -- each candidate, 0.3 s a call at 20k postings; entries first, it walks every newer entry of the
  -- kind), then each entry by its key
  SELECT x.* INTO n
  FROM unnest(v_keys) AS q(key)
  CROSS JOIN unnest(ARRAY[coalesce(e.project, ''), v_mine]) AS pr(project)
  CROSS JOIN LATERAL (SELECT k.entry_id FROM postings k
                      WHERE k.org_id = e.org_id AND k.lexeme = q.key AND k.project = pr.project
                        AND k.entry_id <> e.id OFFSET 0) k
  CROSS JOIN LATERAL (SELECT x.* FROM entries x WHERE x.org_id = e.org_id AND x.id = k.entry_id OFFSET 0) x
  WHERE x.kind = e.kind
    AND x.created_at > coalesce(e.confirmed_at, e.created_at)
    AND x.created_at <= cairn_as_of()
    AND (x.expires_at IS NULL OR x.expires_at > now())
  ORDER BY x.created_at DESC LIMIT 1;
  IF n.id IS NULL THEN
    RETURN NULL;
  END IF;
  RETURN jsonb_build_object(
    'paths', (SELECT to_jsonb(array_agg(q ORDER BY q)) FROM unnest(e.paths) AS q
              WHERE EXISTS (SELECT 1 FROM unnest(n.paths) AS p
                            WHERE p = q OR starts_with(p, q || '/') OR starts_with(q, p || '/'))),
    'since', to_char(n.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'by', n.agent, 'entry', n.id,
    'says', left(regexp_replace(n.content, '\s+', ' ', 'g'), 80));
END $function$;
