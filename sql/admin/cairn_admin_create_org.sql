-- Operator: a new org with its ledger head, its recall statistics row and its first API key.
CREATE OR REPLACE FUNCTION public.cairn_admin_create_org(p_org uuid, p_name text, p_key jsonb, p_actor text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO orgs (id, name) VALUES (p_org, p_name);
  INSERT INTO ledger_heads (org_id, seq, hash) VALUES (p_org, 0, repeat('0', 64));
  INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (p_org, 0, 0);
  RETURN jsonb_build_object('org', jsonb_build_object('id', p_org, 'name', p_name),
    'key', cairn_admin_create_key(p_org, p_key, p_actor));
END $function$;
