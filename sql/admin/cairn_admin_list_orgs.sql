-- Operator: every org, oldest first.
CREATE OR REPLACE FUNCTION public.cairn_admin_list_orgs()
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_orgs jsonb;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  SELECT coalesce(jsonb_agg(jsonb_build_object('id', o.id, 'name', o.name, 'created_at', o.created_at)
      ORDER BY o.created_at), '[]'::jsonb) INTO v_orgs FROM orgs o;
  PERFORM set_config('cairn.operator', '', true);
  RETURN v_orgs;
END $function$;
