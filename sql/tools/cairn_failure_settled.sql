-- Whether a failure the brief would list is settled by a later entry (space view brief,
-- "recent failures"): an observation, memory or decision of the same project — a fix is recorded
-- as any of them ("Flash overflow fixed: …", "Fix for the WinError 32 teardown failures: …") —
-- which the reader may see (shared, or the reader's own private one), written after it, not
-- expired, anchored to an overlapping path (one contains the other, as for stale marks:
-- cairn_entry_stale) and saying it is fixed. A fix written with `supersedes` settles its failure
-- without this (a superseded entry is never a candidate). Tags are not used: the ones failures
-- share (ci, test, bug) name no one failure, so a fix of one would settle all (docs/design.md,
-- "The brief"). Index look-ups on postings, a few per path; an observation without anchors is
-- settled only by supersession.
CREATE OR REPLACE FUNCTION public.cairn_failure_settled(e entries, p_reader text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_keys text[];
  v_mine text;
  -- a fix recorded: "fixed" as a verb ("Flash overflow fixed: …", "Fixed the null check"; not "a
  -- fixed 2 s delay", "fixed-size", "not fixed yet"), "fix for" that no "no" or "looking for a"
  -- denies ("Fix for the WinError 32 teardown failures"), "fix:"
  v_fix constant text := '(?<!\m(not|never|no) )\mfixed(?=\s*([:(,.;]|$)|\s+(by|in|with|the|on|via|for|and|it|now|'
    'properly|upstream|after|when|since|so)\M)|(?<!\m(no|not|without|needs?|needed|awaiting|waiting for|looking for) '
    '(a )?)\mfix(es)? for\M|\mfix:';
  -- and, said of an event (an observation): it is resolved, the build is green again
  v_over constant text := '\m(resolved|green again|passes again|passing again|back to green)\M';
BEGIN
  IF e.kind <> 'observation' OR e.paths IS NULL OR cardinality(e.paths) = 0 THEN
    RETURN false;
  END IF;
  v_mine := cairn_posting_key('agent', e.project, p_reader);
  v_keys := cairn_anchor_keys(e.paths) || ARRAY(SELECT '@a:' || q FROM unnest(e.paths) AS q);
  -- postings first, one index look-up per key and partition, whatever the statistics say (as in
  -- cairn_entry_stale)
  RETURN EXISTS (
    SELECT 1 FROM unnest(v_keys) AS q(key)
    CROSS JOIN unnest(ARRAY[coalesce(e.project, ''), v_mine]) AS pr(project)
    CROSS JOIN LATERAL (SELECT k.entry_id FROM postings k
                        WHERE k.org_id = e.org_id AND k.lexeme = q.key AND k.project = pr.project
                          AND k.entry_id <> e.id OFFSET 0) k
    CROSS JOIN LATERAL (SELECT x.* FROM entries x WHERE x.org_id = e.org_id AND x.id = k.entry_id OFFSET 0) x
    WHERE x.kind IN ('observation', 'memory', 'decision')
      AND x.created_at > e.created_at
      AND (x.expires_at IS NULL OR x.expires_at > now())
      AND (x.content ~* v_fix OR x.kind = 'observation' AND x.content ~* v_over));
END $function$;
