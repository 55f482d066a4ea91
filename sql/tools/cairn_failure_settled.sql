-- Whether a failure the brief would list is settled (space view brief, "recent failures"): its
-- own text records the fix ("CI failed on the prettier check; fixed with `pnpm format`"), or a
-- later entry does — an observation, memory or decision (a fix is recorded as any of them: "Flash
-- overflow fixed: …", "Fix for the WinError 32 teardown failures: …") which the reader may see
-- (shared, or the reader's own private one), written after it, not expired, saying it is fixed,
-- and naming it: of the same project and anchored to an overlapping path (one contains the other,
-- as for stale marks: cairn_entry_stale), or of any project and naming an identifier of the
-- failure's text that at most v_rare entries the reader may see hold ("MessageLockLost fix: …"
-- after the MessageLockLost bursts; "Fixed the CSI mount failure: LD_SDK_KEY …" in the platform
-- repository after the risk engine's pod could not read LD_SDK_KEY); a later decision naming such
-- an identifier settles it whatever its words, and a later memory naming one that records a change
-- ("now", "no longer"): a change of course taken on the failure ("Build Linux wheels on
-- manylinux_2_28 instead of manylinux2014", "inventory-sync now streams the CSV"). A fix written
-- with `supersedes` settles its failure without this (a superseded entry is never a candidate).
-- Tags are not used, nor a name many entries hold: the tags failures share (ci, test, bug) and the
-- service's own name say no one failure, so a fix of one would settle all (docs/design.md, "The
-- brief"). Index look-ups on postings, a few per path and identifier.
CREATE OR REPLACE FUNCTION public.cairn_failure_settled(e entries, p_reader text)
 RETURNS boolean
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_keys text[];
  v_mine text;
  v_own text;
  v_parts text[];
  v_ids uuid[];
  v_named uuid[];
  v_rare constant int := 3;
  -- a fix recorded: "fixed" as a verb ("Flash overflow fixed: …", "Fixed the null check", a
  -- sentence that begins with it: "Fixed ERR_REQUIRE_ESM by switching to ESM"; not "a fixed 2 s
  -- delay", "fixed-size", "not fixed yet", "pinned until it's fixed upstream"), "fix for" that no
  -- "no" or "looking for a" denies ("Fix for the WinError 32 teardown failures"), "fix:"
  v_fix constant text := '(^|[.!?;]\s+)fixed\M|(?<!\m(not|never|no) |\m(until|unless|once|when|before|if) ([[:alpha:]''’]+ ){0,2})'
    '\mfixed(?=\s*([:(,.;]|$)|\s+(by|in|with|the|on|via|for|and|it|now|'
    'properly|upstream|after|when|since|so)\M)|(?<!\m(no|not|without|needs?|needed|awaiting|waiting for|looking for) '
    '(a )?)\mfix(es)? for\M|\mfix:';
  -- and, said of an event (an observation): it is resolved, the build is green again
  v_over constant text := '\m(resolved|green again|passes again|passing again|back to green)\M';
  -- and, said of the state of things (a memory): a change made ("inventory-sync now streams the
  -- CSV", "ReservationExpiryIT no longer sleeps")
  v_changed constant text := '\m(now|no longer|any ?more)\M';
BEGIN
  IF e.kind <> 'observation' THEN
    RETURN false;
  END IF;
  IF strpos(lower(e.content), 'fix') > 0 AND e.content ~* v_fix THEN
    RETURN true;
  END IF;
  v_mine := cairn_posting_key('agent', e.project, p_reader);
  v_own := chr(1) || coalesce(p_reader, '') || chr(1);
  v_parts := ARRAY[coalesce(e.project, ''), v_mine];
  -- what names the failure, postings first, one index look-up per key and partition whatever the
  -- statistics say (as in cairn_entry_stale): every entry on its anchors; and the holders of an
  -- identifier of its text (cairn_ref_keys, as recall's references) when there are at most v_rare
  -- of them
  IF cardinality(e.paths) > 0 THEN
    v_keys := cairn_anchor_keys(e.paths) || ARRAY(SELECT '@a:' || q FROM unnest(e.paths) AS q);
    v_ids := ARRAY(SELECT k.entry_id FROM unnest(v_keys) AS q(key)
                   CROSS JOIN unnest(v_parts) AS pr(project)
                   CROSS JOIN LATERAL (SELECT k.entry_id FROM postings k
                                       WHERE k.org_id = e.org_id AND k.lexeme = q.key AND k.project = pr.project
                                       OFFSET 0) k);
  END IF;
  v_named := ARRAY(
    SELECT h.id FROM (SELECT x AS key FROM unnest(cairn_ref_keys(e.content)) AS x OFFSET 0) i
    CROSS JOIN LATERAL (SELECT ARRAY(SELECT k.entry_id FROM postings k
                                     WHERE k.org_id = e.org_id AND k.lexeme = i.key
                                       AND (left(k.project, 1) <> chr(1) OR starts_with(k.project, v_own))
                                     LIMIT v_rare + 1) AS ids OFFSET 0) k
    CROSS JOIN LATERAL unnest(k.ids) AS h(id)
    WHERE cardinality(k.ids) <= v_rare);
  -- one of them written after it, saying it is fixed, or a decision or a memory of a change that
  -- names it (a change of course taken on the failure: "Build Linux wheels on manylinux_2_28
  -- instead of manylinux2014" after the wheel build broke on manylinux2014): each fetched by its id
  -- (a plan by kind and time would read every later entry of the org)
  RETURN EXISTS (
    SELECT 1 FROM unnest(coalesce(v_ids, '{}') || v_named) AS q(id)
    CROSS JOIN LATERAL (SELECT x.id, x.kind, x.content FROM entries x
                        WHERE x.id = q.id AND x.org_id = e.org_id AND x.id <> e.id
                          AND x.kind IN ('observation', 'memory', 'decision')
                          AND x.created_at > e.created_at
                          AND (x.expires_at IS NULL OR x.expires_at > now()) OFFSET 0) x
    WHERE x.content ~* v_fix OR x.kind = 'observation' AND x.content ~* v_over
       OR x.id = ANY(v_named) AND (x.kind = 'decision' OR x.kind = 'memory' AND x.content ~* v_changed));
END $function$;
