-- space view brief: the candidates of a project's briefing, at most p_per of each kind, newest
-- first; src/domain/brief.ts ranks them across sections, drops near-duplicates and fits them to
-- the budget. Current entries only (not superseded, not expired) in the caller's read scope (an
-- org entry a project entry replaced for p_proj is not current there: cairn_recall_visible):
--   plans        active or draft plans (an active plan untouched for 14 days is "stale")
--   decisions    decisions
--   conventions  memories and the caller's notes tagged or worded as a rule
--   failures     observations of the last 30 days tagged or worded as a failure, but those
--                recorded with their fix, those a later observation, memory or decision naming
--                them (their anchors, a rare identifier of theirs) says are fixed, and those a
--                later decision naming a rare identifier of theirs took on (cairn_failure_settled)
--   stale        active plans untouched for 14 days, and memories and decisions a newer one of
--                their kind on their paths may contradict (cairn_entry_stale; the mark is sent)
-- (cairn_brief_cue). Each kind is read newest first, straight off a partial index of the entries
-- that qualify: the shared ones of each project the read sees (entries_brief_project_idx), or of
-- the whole org for an org read (entries_brief_shared_idx), and the caller's own private ones
-- (entries_brief_private_idx). So a brief reads at most a few times p_per entries, whatever the
-- org's size and however few of its entries qualify. A candidate carries only what the brief's
-- ranking and lines read (not an entry's whole JSON: links, metadata and paths were most of the
-- bytes the server parsed and dropped), as an array in the order of BriefRow
-- (src/domain/operations.ts): section, id, kind, content, rationale, title, status, steps, tags,
-- project, agent, created_at, updated_at — a quarter fewer bytes to send and parse than objects
-- naming every field — then its version and its stale mark (or null), then its paths and commit
-- (the brief's items carry them, so the agent side checks them against the working tree without
-- a second read). The version is the entry
-- row's xmin, which every change of the row makes anew, its update time, against the day the
-- 32-bit xmin comes round again (within one transaction neither changes: a brief never runs in a
-- transaction that writes entries), and the id of the entry marking it stale, if any. p_known is
-- what the server already holds (id -> version, of the candidates the same caller last received for
-- the same project and scope): a candidate whose row is still that version, every field as the
-- server holds it, is sent as its section and id alone (receiving and parsing ~35 KB of
-- candidates was a third of a brief's server CPU; docs/design.md, "CPU per call").
CREATE OR REPLACE FUNCTION public.cairn_brief(p_org uuid, p_proj text, p_scope text, p_agent text, p_per integer,
  p_known jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
 SET jit TO 'off'
AS $function$
BEGIN
  RETURN (
    SELECT coalesce(jsonb_agg(CASE WHEN p_known->>c.id::text = m.stamp
        THEN jsonb_build_array(s.section, c.id)
        ELSE jsonb_build_array(s.section,
          (c.row).id, (c.row).kind, (c.row).content, (c.row).rationale, (c.row).title, (c.row).status,
          (c.row).steps, to_jsonb((c.row).tags), (c.row).project, (c.row).agent,
          (c.row).created_at, (c.row).updated_at, m.stamp, m.mark, (c.row).paths, (c.row).commit) END
      ORDER BY k.n, c.created_at DESC, c.id DESC), '[]'::jsonb)
    FROM unnest(ARRAY['plan', 'decision', 'memory', 'note', 'observation']) WITH ORDINALITY AS k(kind, n)
    CROSS JOIN LATERAL (
      SELECT u.row, u.created_at, u.id, u.stamp FROM (
        -- shared entries of the read's project and the org-wide ones
        (SELECT y.row, y.created_at, y.id, y.stamp
         FROM unnest(CASE WHEN p_scope <> 'project' THEN '{}'::text[]
                          WHEN p_proj IS NULL THEN ARRAY['']
                          ELSE ARRAY[p_proj, ''] END) AS pr(project)
         CROSS JOIN LATERAL (
           SELECT e AS row, e.created_at, e.id, e.xmin || ' ' || e.updated_at AS stamp FROM entries e
           WHERE e.org_id = p_org AND e.kind = k.kind AND e.project_key = pr.project
             AND e.scope <> 'agent' AND e.superseded_by IS NULL
             AND (e.superseded_in IS NULL OR p_proj IS NULL OR NOT e.superseded_in ? p_proj)
             AND cairn_brief_cue(e.kind, e.status, e.tags, e.content)
             AND e.created_at >= CASE WHEN k.kind = 'observation' THEN now() - interval '30 days' ELSE '-infinity' END
             AND (e.expires_at IS NULL OR e.expires_at > now())
           AND (k.kind <> 'observation' OR NOT cairn_failure_settled(e, p_agent))
           ORDER BY e.created_at DESC LIMIT p_per) y)
        UNION ALL
        -- an org read: the shared entries of every project
        (SELECT e AS row, e.created_at, e.id, e.xmin || ' ' || e.updated_at AS stamp FROM entries e
         WHERE p_scope = 'org' AND e.org_id = p_org AND e.kind = k.kind
           AND e.scope <> 'agent' AND e.superseded_by IS NULL
           AND (e.superseded_in IS NULL OR p_proj IS NULL OR NOT e.superseded_in ? p_proj)
           AND cairn_brief_cue(e.kind, e.status, e.tags, e.content)
           AND e.created_at >= CASE WHEN k.kind = 'observation' THEN now() - interval '30 days' ELSE '-infinity' END
           AND (e.expires_at IS NULL OR e.expires_at > now())
           AND (k.kind <> 'observation' OR NOT cairn_failure_settled(e, p_agent))
         ORDER BY e.created_at DESC LIMIT p_per)
        UNION ALL
        -- the caller's own private entries the read sees
        (SELECT e AS row, e.created_at, e.id, e.xmin || ' ' || e.updated_at AS stamp FROM entries e
         WHERE e.org_id = p_org AND e.agent = p_agent AND e.kind = k.kind
           AND e.scope = 'agent' AND e.superseded_by IS NULL
           AND cairn_brief_cue(e.kind, e.status, e.tags, e.content)
           AND e.created_at >= CASE WHEN k.kind = 'observation' THEN now() - interval '30 days' ELSE '-infinity' END
           AND (e.expires_at IS NULL OR e.expires_at > now())
           AND (k.kind <> 'observation' OR NOT cairn_failure_settled(e, p_agent))
           AND cairn_in_scope(e.scope, e.project, e.agent, p_scope, p_proj, p_agent)
         ORDER BY e.created_at DESC LIMIT p_per)
      ) u
      ORDER BY u.created_at DESC, u.id DESC
      LIMIT p_per
    ) c
    -- an anchored memory or decision with a newer one of its kind on its paths (cairn_entry_stale)
    -- is shown as may be stale; the marking entry is part of the version, so a new mark sends the
    -- candidate whole
    CROSS JOIN LATERAL (SELECT x.mark, c.stamp || coalesce(' ' || (x.mark->>'entry'), '') AS stamp
      FROM (SELECT CASE WHEN (c.row).paths IS NOT NULL AND (c.row).kind IN ('memory', 'decision')
        THEN cairn_entry_stale(c.row) END AS mark) x) m
    CROSS JOIN LATERAL (SELECT CASE
        WHEN m.mark IS NOT NULL THEN 'stale'
        WHEN (c.row).kind = 'plan' THEN CASE WHEN (c.row).status = 'active'
          AND (c.row).updated_at < now() - interval '14 days' THEN 'stale' ELSE 'plans' END
        WHEN (c.row).kind = 'decision' THEN 'decisions'
        WHEN (c.row).kind = 'observation' THEN 'failures'
        ELSE 'conventions'
      END AS section) s);
END $function$;
