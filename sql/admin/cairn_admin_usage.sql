-- Operator: an org's plan and use, with p_days days of history.
CREATE OR REPLACE FUNCTION public.cairn_admin_usage(p_org uuid, p_days integer)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_usage_for(p_org, p_days);
END $function$;
