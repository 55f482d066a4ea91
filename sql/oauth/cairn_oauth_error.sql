CREATE OR REPLACE FUNCTION public.cairn_oauth_error(p_error text, p_description text)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT jsonb_build_object('error', p_error, 'error_description', p_description)
$function$;
