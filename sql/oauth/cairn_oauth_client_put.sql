-- Registers a client, or refreshes the cached metadata document of one (p: the row as JSON).
CREATE OR REPLACE FUNCTION public.cairn_oauth_client_put(p jsonb)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_c oauth_clients;
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  INSERT INTO oauth_clients (id, kind, name, redirect_uris, auth_method, secret_hash, metadata, expires_at)
    VALUES (p->>'id', p->>'kind', p->>'name', ARRAY(SELECT jsonb_array_elements_text(p->'redirect_uris')),
      p->>'auth_method', p->>'secret_hash', coalesce(p->'metadata', '{}'::jsonb), (p->>'expires_at')::timestamptz)
    ON CONFLICT (id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris,
      auth_method = excluded.auth_method, metadata = excluded.metadata, expires_at = excluded.expires_at
      WHERE oauth_clients.kind = 'metadata_document'
    RETURNING * INTO v_c;
  RETURN cairn_oauth_client_json(v_c);
END $function$;
