-- The operator's way in for a self-hosted install (`cairn user create`): an account that owns an
-- existing org. An email that has an account keeps its password and joins the org.
CREATE OR REPLACE FUNCTION public.cairn_admin_add_user(p_org uuid, p_user uuid, p_email text, p_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_user uuid;
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO users (id, email, password_hash) VALUES (p_user, p_email, p_hash) ON CONFLICT (email) DO NOTHING;
  SELECT id INTO v_user FROM users WHERE email = p_email;
  INSERT INTO memberships (user_id, org_id, role) VALUES (v_user, p_org, 'owner') ON CONFLICT DO NOTHING;
  RETURN jsonb_build_object('user_id', v_user, 'email', p_email, 'org_id', p_org, 'created', v_user = p_user);
END $function$;
