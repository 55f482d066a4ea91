-- The write scope: `project` needs a resolved project and becomes `org` without one.
CREATE OR REPLACE FUNCTION public.cairn_write_scope(p_requested text, p_default text, p_project text)
 RETURNS text
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT CASE
    WHEN coalesce(p_requested, p_default) = 'project' AND p_project IS NULL THEN 'org'
    WHEN p_requested IS NULL AND p_default IS NULL THEN CASE WHEN p_project IS NULL THEN 'org' ELSE 'project' END
    ELSE coalesce(p_requested, p_default)
  END
$function$;
