-- A new org with its owner (no API key yet: keys are made under Settings, API keys).
CREATE OR REPLACE FUNCTION public.cairn_dash_org_create(p_user uuid, p_org uuid, p_name text)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  PERFORM set_config('cairn.org', p_org::text, true);
  INSERT INTO orgs (id, name) VALUES (p_org, p_name);
  INSERT INTO ledger_heads (org_id, seq, hash) VALUES (p_org, 0, repeat('0', 64));
  INSERT INTO entry_stats (org_id, docs, lexemes) VALUES (p_org, 0, 0);
  INSERT INTO memberships (user_id, org_id, role) VALUES (p_user, p_org, 'owner');
  RETURN jsonb_build_object('id', p_org, 'name', p_name);
END $function$;
