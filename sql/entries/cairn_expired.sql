-- The org's entries whose time-to-live has run out, in a read scope: space subtracts them from the
-- counts kept in scope_counts (an expired entry is never shown or counted, but stays until it is
-- forgotten). Read on entries_org_expires_idx, so the cost is the number of expired entries.
CREATE OR REPLACE FUNCTION public.cairn_expired(p_org uuid, p_agent text, p_scope text, p_proj text)
 RETURNS TABLE(kind text, project text)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT e.kind, e.project FROM entries e
  WHERE e.org_id = p_org AND e.expires_at IS NOT NULL AND e.expires_at <= now()
    AND cairn_in_scope(e.scope, e.project, e.agent, p_scope, p_proj, p_agent)
$function$;
