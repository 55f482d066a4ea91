-- True while an OAuth function has set `cairn.oauth` for its statement: only then do the policies
-- of oauth_clients, oauth_grants, oauth_codes and oauth_tokens (docs/design.md, "OAuth") let rows
-- through. Codes and tokens are stored as SHA-256 hashes; an access token's hash covers the
-- resource it was issued for, so a token presented to another resource matches nothing.
CREATE OR REPLACE FUNCTION public.cairn_oauth()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(current_setting('cairn.oauth', true), '') = 'on'
$function$;
