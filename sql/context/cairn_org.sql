CREATE OR REPLACE FUNCTION public.cairn_org()
 RETURNS uuid
 LANGUAGE sql
 STABLE
AS $function$
  SELECT nullif(current_setting('cairn.org', true), '')::uuid
$function$;
