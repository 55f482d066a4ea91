-- The signed-in user of a dashboard session (cairn_dash_actor) when they own the session's org;
-- raises CN403 otherwise.
CREATE OR REPLACE FUNCTION public.cairn_dash_owner(p_token_hash text, OUT user_id uuid, OUT email text, OUT org_id uuid)
 RETURNS record
 LANGUAGE plpgsql
AS $function$
DECLARE
  a record := cairn_dash_actor(p_token_hash);
BEGIN
  IF NOT EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = a.user_id AND m.org_id = a.org_id AND m.role = 'owner') THEN
    RAISE EXCEPTION 'members: only an owner of the org adds or removes members' USING ERRCODE = 'CN403';
  END IF;
  user_id := a.user_id;
  email := a.email;
  org_id := a.org_id;
END $function$;
