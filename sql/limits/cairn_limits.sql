-- The limits in force for an org: its plan, else the default plan; all nulls when there is none.
CREATE OR REPLACE FUNCTION public.cairn_limits(p_org uuid)
 RETURNS service_plans
 LANGUAGE plpgsql
 STABLE
AS $function$
DECLARE
  v_p service_plans;
BEGIN
  SELECT p.* INTO v_p FROM orgs o JOIN service_plans p ON p.id = o.plan_id WHERE o.id = p_org;
  IF v_p.id IS NULL THEN
    SELECT p.* INTO v_p FROM service_plans p WHERE p.is_default;
  END IF;
  RETURN v_p;
END $function$;
