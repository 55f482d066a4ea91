-- Operator: a new API key for an org (p_key: {id, hash, prefix, name, agent}; only the hash is
-- stored; agent, when given, binds the key to that agent), recorded in the org's ledger as
-- key.create by p_actor.
CREATE OR REPLACE FUNCTION public.cairn_admin_create_key(p_org uuid, p_key jsonb, p_actor text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  v_k api_keys;
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  IF NOT EXISTS (SELECT 1 FROM orgs WHERE id = p_org) THEN
    RAISE EXCEPTION 'org % not found', p_org USING ERRCODE = 'CN404';
  END IF;
  INSERT INTO api_keys (id, org_id, hash, prefix, name, agent, created_by)
    VALUES ((p_key->>'id')::uuid, p_org, p_key->>'hash', p_key->>'prefix', p_key->>'name',
      nullif(p_key->>'agent', ''), p_actor)
    RETURNING * INTO v_k;
  PERFORM cairn_ledger_append(p_org, p_actor, 'key.create', v_k.id, NULL, NULL, v_k.name, false);
  RETURN cairn_key_json(v_k);
END $function$;
