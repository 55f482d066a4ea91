-- An empty query: the most recent visible entries. Planned per call (the filters decide the plan).
CREATE OR REPLACE FUNCTION public.cairn_recall_recent(p_org uuid, p_agent text, p_scope text, p_proj text, p_all boolean, p_kinds text[], p_tags text[], p_author text, p_since timestamp with time zone, p_until timestamp with time zone, p_limit integer)
 RETURNS json
 LANGUAGE plpgsql
 STABLE
 SET plan_cache_mode TO 'auto'
AS $function$
DECLARE
  v_at timestamptz := nullif(cairn_as_of(), 'infinity');
BEGIN
  RETURN (SELECT coalesce(json_agg(cairn_hit_json(cairn_entry_at(r), 0) ORDER BY r.created_at DESC, r.id DESC), '[]'::json)
    FROM (SELECT * FROM entries e
          WHERE e.org_id = p_org AND e.created_at <= coalesce(v_at, 'infinity')
            AND cairn_recall_visible(e, p_agent, p_scope, p_proj, p_all, p_kinds, p_tags, p_author, p_since, p_until, v_at)
          ORDER BY e.created_at DESC, e.id DESC LIMIT p_limit) r);
END $function$;
