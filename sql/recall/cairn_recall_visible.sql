-- Whether an entry is one a recall may return: scope, expiry, supersession (an org entry a project
-- entry replaced for p_proj counts as replaced in that project's reads only) and the read's filters,
-- as of p_at when the recall asks for a time (an entry written after it does not exist yet; a
-- replacement written after it does not count; expiry is judged then); NULL: now. One expression
-- with no sub-select (the replacement's time is cairn_replaced_by's), so that the planner inlines
-- it into the statement that calls it instead of calling it row by row.
CREATE OR REPLACE FUNCTION public.cairn_recall_visible(e entries, p_agent text, p_scope text, p_proj text, p_all boolean, p_kinds text[], p_tags text[], p_author text, p_since timestamp with time zone, p_until timestamp with time zone, p_at timestamp with time zone)
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT cairn_in_scope(e.scope, e.project, e.agent, p_scope, p_proj, p_agent)
    AND (p_at IS NULL OR e.created_at <= p_at)
    AND (e.expires_at IS NULL OR e.expires_at > CASE WHEN p_at IS NULL OR p_at > now() THEN now() ELSE p_at END)
    AND (p_all OR e.superseded_by IS NULL OR (p_at IS NOT NULL AND NOT cairn_replaced_by(e.org_id, e.superseded_by, p_at)))
    AND (p_all OR e.superseded_in IS NULL OR p_proj IS NULL OR NOT e.superseded_in ? p_proj
         OR (p_at IS NOT NULL AND NOT cairn_replaced_by(e.org_id, (e.superseded_in ->> p_proj)::uuid, p_at)))
    AND (p_kinds IS NULL OR e.kind = ANY(p_kinds))
    AND (p_tags IS NULL OR e.tags && p_tags)
    AND (p_author IS NULL OR e.agent = p_author)
    AND (p_since IS NULL OR e.created_at >= p_since)
    AND (p_until IS NULL OR e.created_at < p_until)
$function$;
