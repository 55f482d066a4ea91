-- Custom SQL migration file, put your code below! ---- Settings, members: who belongs to the session's org. Owners add an existing account by its
-- email and remove members; an org keeps at least one owner. Membership is checked on every
-- dashboard action (cairn_dash_actor), so a removed member loses the org on their next request.
CREATE FUNCTION cairn_dash_members(p_token_hash text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('user_id', u.id, 'email', u.email, 'role', m.role,
      'joined_at', m.created_at) ORDER BY m.role DESC, u.email), '[]'::jsonb)
    FROM memberships m JOIN users u ON u.id = m.user_id WHERE m.org_id = a.org_id);
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_owner(p_token_hash text, OUT user_id uuid, OUT email text, OUT org_id uuid)
LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = a.user_id AND m.org_id = a.org_id AND m.role = 'owner') THEN
    RAISE EXCEPTION 'members: only an owner of the org adds or removes members' USING ERRCODE = 'CN403';
  END IF;
  user_id := a.user_id;
  email := a.email;
  org_id := a.org_id;
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_member_add(p_token_hash text, p_email text) RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_owner(p_token_hash);
  v_user uuid;
BEGIN
  SELECT id INTO v_user FROM users WHERE email = p_email;
  IF v_user IS NULL THEN
    RAISE EXCEPTION 'email: no account has this email; ask them to create one first, then add them'
      USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO memberships (user_id, org_id, role) VALUES (v_user, a.org_id, 'member') ON CONFLICT DO NOTHING;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'email: % is already a member', p_email USING ERRCODE = 'CN409';
  END IF;
  RETURN jsonb_build_object('user_id', v_user, 'email', p_email, 'role', 'member');
END $$;
--> statement-breakpoint
CREATE FUNCTION cairn_dash_member_remove(p_token_hash text, p_user uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  a record := cairn_dash_owner(p_token_hash);
  v_role text;
BEGIN
  -- one remover at a time per org, so two owners cannot remove each other at once
  PERFORM 1 FROM memberships WHERE org_id = a.org_id FOR UPDATE;
  DELETE FROM memberships WHERE org_id = a.org_id AND user_id = p_user RETURNING role INTO v_role;
  IF v_role IS NULL THEN
    RAISE EXCEPTION 'member: not a member of this org' USING ERRCODE = 'CN404';
  END IF;
  IF v_role = 'owner' AND NOT EXISTS (SELECT 1 FROM memberships WHERE org_id = a.org_id AND role = 'owner') THEN
    RAISE EXCEPTION 'member: an org keeps at least one owner' USING ERRCODE = 'CN409';
  END IF;
  -- the removed user's sessions show another of their orgs, if they have one
  UPDATE sessions s SET org_id = (SELECT m.org_id FROM memberships m WHERE m.user_id = p_user
      ORDER BY m.created_at LIMIT 1)
    WHERE s.user_id = p_user AND s.org_id = a.org_id;
END $$;
