-- The sweep's view of an org's artifacts: every blob key the org's rows name (docs/design.md,
-- "Faults and the sweep").
CREATE OR REPLACE FUNCTION public.cairn_admin_blob_keys(p_org uuid)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  RETURN (SELECT coalesce(jsonb_agg(jsonb_build_object('id', a.id, 'blob_key', a.blob_key)), '[]'::jsonb)
    FROM artifacts a WHERE a.org_id = p_org);
END $function$;
