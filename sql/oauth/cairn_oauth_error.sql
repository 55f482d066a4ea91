-- A token endpoint error outcome (RFC 6749 section 5.2): {error, error_description}. Outcomes that
-- must persist (a replayed code or refresh token revokes its grant) are returned this way, not
-- raised, so the revocation is not rolled back.
CREATE OR REPLACE FUNCTION public.cairn_oauth_error(p_error text, p_description text)
 RETURNS jsonb
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT jsonb_build_object('error', p_error, 'error_description', p_description)
$function$;
