-- Operator: puts an org on a plan (NULL: back on the default plan); returns its usage.
CREATE OR REPLACE FUNCTION public.cairn_admin_org_plan(p_org uuid, p_plan text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF p_plan IS NOT NULL AND NOT EXISTS (SELECT 1 FROM service_plans WHERE id = p_plan) THEN
    RAISE EXCEPTION 'plan: there is no plan "%"; create it first', p_plan USING ERRCODE = 'CN404';
  END IF;
  UPDATE orgs SET plan_id = p_plan WHERE id = p_org;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_usage_for(p_org, 0);
END $function$;
