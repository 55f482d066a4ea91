-- An OAuth client as src/oauth reads it.
CREATE OR REPLACE FUNCTION public.cairn_oauth_client_json(c oauth_clients)
 RETURNS jsonb
 LANGUAGE sql
 STABLE
AS $function$
  SELECT jsonb_build_object('id', c.id, 'kind', c.kind, 'name', c.name, 'redirect_uris', to_jsonb(c.redirect_uris),
    'auth_method', c.auth_method, 'secret_hash', c.secret_hash, 'metadata', c.metadata,
    'created_at', c.created_at, 'expires_at', c.expires_at)
$function$;
