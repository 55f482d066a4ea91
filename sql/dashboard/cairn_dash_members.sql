-- Settings, members: who belongs to the session's org, owners first. Membership is checked on
-- every dashboard action (cairn_dash_actor), so a removed member loses the org on their next
-- request.
CREATE OR REPLACE FUNCTION public.cairn_dash_members(p_token_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('user_id', u.id, 'email', u.email, 'role', m.role,
      'joined_at', m.created_at) ORDER BY m.role DESC, u.email), '[]'::jsonb)
    FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = a.org_id);
END $function$;
