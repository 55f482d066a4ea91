CREATE OR REPLACE FUNCTION public.cairn_operator()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(current_setting('cairn.operator', true), '') = 'on'
$function$;
