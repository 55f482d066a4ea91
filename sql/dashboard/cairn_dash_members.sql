-- Settings, members: the org's members, owners first, then the invitations still open (role
-- 'invited', with their id for cancelling, when they were sent and when they lapse).
CREATE OR REPLACE FUNCTION public.cairn_dash_members(p_token_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('user_id', u.id, 'email', u.email, 'role', m.role,
      'joined_at', m.created_at) ORDER BY m.role DESC, u.email), '[]'::jsonb)
    FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = a.org_id)
    || (SELECT coalesce(jsonb_agg(jsonb_build_object('invitation_id', i.id, 'email', i.email, 'role', 'invited',
      'invited_by', i.invited_by, 'joined_at', i.created_at, 'expires_at', i.expires_at) ORDER BY i.email), '[]'::jsonb)
    FROM invitations i WHERE i.org_id = a.org_id AND i.expires_at > now());
END $function$;
