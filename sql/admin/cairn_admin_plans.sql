-- Operator: every plan with the number of orgs on it.
CREATE OR REPLACE FUNCTION public.cairn_admin_plans()
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  RETURN (SELECT coalesce(jsonb_agg(cairn_plan_json(p) ORDER BY p.id), '[]'::jsonb) FROM service_plans p);
END $function$;
