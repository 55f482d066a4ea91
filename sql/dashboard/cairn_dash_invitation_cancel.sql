-- Settings, members: an owner takes back an invitation of the org not yet answered.
CREATE OR REPLACE FUNCTION public.cairn_dash_invitation_cancel(p_token_hash text, p_id uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_owner(p_token_hash);
BEGIN
  DELETE FROM invitations WHERE id = p_id AND org_id = a.org_id;
  IF NOT FOUND THEN
    RAISE EXCEPTION 'invitation: no open invitation of this org has this id' USING ERRCODE = 'CN404';
  END IF;
END $function$;
