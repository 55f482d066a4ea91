-- Settings, members: an owner removes a member; the org keeps at least one owner.
CREATE OR REPLACE FUNCTION public.cairn_dash_member_remove(p_token_hash text, p_user uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
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
END $function$;
