-- Settings, members: an owner removes a member, or a member leaves; the org keeps at least one
-- owner. What the member could still reach the org with goes with them, in the same statement: the
-- API keys they created (revoked, each a key.revoke event in the ledger by the remover) and their
-- OAuth grants (revoked; their tokens already stop with the membership).
CREATE OR REPLACE FUNCTION public.cairn_dash_member_remove(p_token_hash text, p_user uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
  v_role text;
  v_email text;
  k record;
BEGIN
  IF p_user <> a.user_id THEN
    PERFORM cairn_dash_owner(p_token_hash); -- removing another takes an owner; leaving does not
  END IF;
  -- one remover at a time per org, so two owners cannot remove each other at once
  PERFORM 1 FROM memberships WHERE org_id = a.org_id FOR UPDATE;
  SELECT u.email INTO v_email FROM memberships m JOIN users u ON u.id = m.user_id
    WHERE m.org_id = a.org_id AND m.user_id = p_user;
  DELETE FROM memberships WHERE org_id = a.org_id AND user_id = p_user RETURNING role INTO v_role;
  IF v_role IS NULL THEN
    RAISE EXCEPTION 'member: not a member of this org' USING ERRCODE = 'CN404';
  END IF;
  IF v_role = 'owner' AND NOT EXISTS (SELECT 1 FROM memberships WHERE org_id = a.org_id AND role = 'owner') THEN
    RAISE EXCEPTION 'member: an org keeps at least one owner; make another member an owner first' USING ERRCODE = 'CN409';
  END IF;
  FOR k IN SELECT id FROM api_keys WHERE org_id = a.org_id AND created_by = v_email AND revoked_at IS NULL LOOP
    PERFORM cairn_admin_revoke_key(k.id, a.email);
  END LOOP;
  PERFORM set_config('cairn.oauth', 'on', true);
  UPDATE oauth_grants SET revoked_at = now() WHERE org_id = a.org_id AND user_id = p_user AND revoked_at IS NULL;
  DELETE FROM oauth_tokens t USING oauth_grants g
    WHERE t.grant_id = g.id AND g.org_id = a.org_id AND g.user_id = p_user;
  PERFORM set_config('cairn.oauth', '', true);
  -- the removed user's sessions show another of their orgs, if they have one
  UPDATE sessions s SET org_id = (SELECT m.org_id FROM memberships m WHERE m.user_id = p_user
      ORDER BY m.created_at LIMIT 1)
    WHERE s.user_id = p_user AND s.org_id = a.org_id;
END $function$;
