-- First start (docs/design.md, "First start"): the org a setup link may give its first owner —
-- the install's oldest org, when it is the `default` the server made and nobody belongs to it yet;
-- else null.
CREATE OR REPLACE FUNCTION public.cairn_admin_setup_org()
 RETURNS uuid
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_org uuid;
  v_name text;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  PERFORM set_config('cairn.dashboard', 'on', true);
  SELECT o.id, o.name INTO v_org, v_name FROM orgs o ORDER BY o.created_at, o.id LIMIT 1;
  IF v_name IS DISTINCT FROM 'default' OR EXISTS (SELECT 1 FROM memberships m WHERE m.org_id = v_org) THEN
    v_org := NULL;
  END IF;
  PERFORM set_config('cairn.operator', '', true);
  PERFORM set_config('cairn.dashboard', '', true);
  RETURN v_org;
END $function$;
