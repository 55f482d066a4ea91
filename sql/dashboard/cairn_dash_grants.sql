-- Settings, connected apps: the session org's OAuth grants, newest first.
CREATE OR REPLACE FUNCTION public.cairn_dash_grants(p_token_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  PERFORM set_config('cairn.oauth', 'on', true);
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', g.id, 'client_id', g.client_id, 'client_name', c.name, 'agent', g.agent,
      'user', u.email, 'scope', g.scope, 'created_at', g.created_at, 'last_used_at', g.last_used_at,
      'revoked_at', g.revoked_at) ORDER BY g.created_at DESC), '[]'::jsonb)
    FROM oauth_grants g JOIN oauth_clients c ON c.id = g.client_id JOIN users u ON u.id = g.user_id
    WHERE g.org_id = a.org_id);
END $function$;
