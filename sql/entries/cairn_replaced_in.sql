-- The projects that replaced an org entry for themselves only (superseded_in), as a list of
-- {project, id} by project: what history and the dashboard's entry page show of it.
CREATE OR REPLACE FUNCTION public.cairn_replaced_in(e entries)
 RETURNS jsonb
 LANGUAGE plpgsql
 STABLE
AS $function$
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('project', r.project, 'id', r.id) ORDER BY r.project), '[]'::jsonb)
    FROM jsonb_each_text(coalesce(e.superseded_in, '{}'::jsonb)) AS r(project, id));
END $function$;
