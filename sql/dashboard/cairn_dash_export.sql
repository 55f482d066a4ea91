-- An owner's export of the session's org (the dashboard's Usage page): how it starts, as
-- cairn_admin_export_org starts an export, with the choice of private notes recorded in the ledger
-- as the owner's own action (a member's, named by email). Refused (CN403) to any other member.
CREATE OR REPLACE FUNCTION public.cairn_dash_export(p_token_hash text, p_private boolean)
 RETURNS jsonb
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_owner(p_token_hash);
BEGIN
  RETURN cairn_admin_export_org(a.org_id, p_private, a.email);
END $function$;
