-- The setup link's account (docs/design.md, "First start"): whoever follows the link becomes the
-- owner of the install's first org — a new account (p_hash given), or an existing one whose
-- password the caller has checked (p_hash null). Refused once the org has any member, so the link
-- works once however many server processes hold it; one setup at a time.
CREATE OR REPLACE FUNCTION public.cairn_dash_setup(p_org uuid, p_user uuid, p_email text, p_hash text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.org', p_org::text, true);
  PERFORM pg_advisory_xact_lock(7266250);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org: not found' USING ERRCODE = 'CN404';
  END IF;
  IF EXISTS (SELECT 1 FROM memberships WHERE org_id = p_org) THEN
    RAISE EXCEPTION 'setup: this org has an owner already; sign in instead' USING ERRCODE = 'CN409';
  END IF;
  IF p_hash IS NOT NULL THEN
    BEGIN
      INSERT INTO users (id, email, password_hash) VALUES (p_user, p_email, p_hash);
    EXCEPTION WHEN unique_violation THEN
      RAISE EXCEPTION 'email: an account with this email exists; enter its password' USING ERRCODE = 'CN409';
    END;
  ELSIF NOT EXISTS (SELECT 1 FROM users WHERE id = p_user AND email = p_email) THEN
    RAISE EXCEPTION 'account: not found' USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO memberships (user_id, org_id, role) VALUES (p_user, p_org, 'owner');
  RETURN jsonb_build_object('user_id', p_user, 'org_id', p_org);
END $function$;
