-- Operator: an org's API keys, oldest first (never their secrets).
CREATE OR REPLACE FUNCTION public.cairn_admin_list_keys(p_org uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_keys jsonb;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  SELECT coalesce(jsonb_agg(cairn_key_json(k) ORDER BY k.created_at), '[]'::jsonb) INTO v_keys
    FROM api_keys k WHERE k.org_id = p_org;
  RETURN v_keys;
END $function$;
