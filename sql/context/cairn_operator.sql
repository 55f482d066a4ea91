-- True while an operator function (CLI, /admin) has set `cairn.operator` for its transaction:
-- the policies that let the operator see across orgs test it.
CREATE OR REPLACE FUNCTION public.cairn_operator()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(current_setting('cairn.operator', true), '') = 'on'
$function$;
