-- The signed-in user's standing consent for a client at a resource, if any: {grant_id, org_id}.
CREATE OR REPLACE FUNCTION public.cairn_oauth_consent(p_session_hash text, p_client_id text, p_resource text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_user uuid;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.oauth', 'on', true);
  SELECT user_id INTO v_user FROM sessions WHERE token_hash = p_session_hash AND expires_at > now();
  RETURN (SELECT jsonb_build_object('grant_id', g.id, 'org_id', g.org_id, 'agent', g.agent) FROM oauth_grants g
    WHERE g.user_id = v_user AND g.client_id = p_client_id AND g.resource = p_resource AND g.revoked_at IS NULL
      AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = g.user_id AND m.org_id = g.org_id)
    ORDER BY g.created_at DESC LIMIT 1);
END $function$;
