-- OAuth 2.1 (docs/design.md, "OAuth"): the service is its own authorization server. Clients,
-- grants, codes and tokens are readable only by the functions below, which set cairn.oauth for
-- their statement. Codes and tokens are stored as SHA-256 hashes; an access token's hash covers
-- the resource it was issued for, so a token presented to another resource matches nothing.
-- Protocol outcomes that must persist (a replayed code or refresh token revokes its grant) are
-- returned as {error, error_description}, not raised, so the revocation is not rolled back.
CREATE OR REPLACE FUNCTION public.cairn_oauth()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(current_setting('cairn.oauth', true), '') = 'on'
$function$;
