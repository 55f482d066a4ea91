-- Forget from the dashboard: one shown entry, with the reason the ledger keeps.
CREATE OR REPLACE FUNCTION public.cairn_dash_forget(p_token_hash text, p_id uuid, p_reason text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM entries WHERE org_id = a.org_id AND id = p_id AND scope <> 'agent') THEN
    RAISE EXCEPTION 'no such entry in this org' USING ERRCODE = 'CN404';
  END IF;
  RETURN cairn_forget_for(a.org_id, '', a.email,
    jsonb_build_object('ids', jsonb_build_array(p_id), 'reason', p_reason));
END $function$;
