-- Operator: revokes a key (idempotent); the first revocation is recorded in the org's ledger.
CREATE OR REPLACE FUNCTION public.cairn_admin_revoke_key(p_key_id uuid, p_actor text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_k api_keys;
BEGIN
  PERFORM set_config('cairn.operator', 'on', true);
  SELECT * INTO v_k FROM api_keys WHERE id = p_key_id;
  PERFORM set_config('cairn.operator', '', true);
  IF v_k.id IS NULL THEN
    RAISE EXCEPTION 'key % not found', p_key_id USING ERRCODE = 'CN404';
  END IF;
  PERFORM set_config('cairn.org', v_k.org_id::text, true);
  IF v_k.revoked_at IS NULL THEN
    UPDATE api_keys SET revoked_at = now() WHERE id = p_key_id RETURNING * INTO v_k;
    PERFORM cairn_ledger_append(v_k.org_id, p_actor, 'key.revoke', v_k.id, NULL, NULL, v_k.name, false);
  END IF;
  RETURN cairn_key_json(v_k);
END $function$;
