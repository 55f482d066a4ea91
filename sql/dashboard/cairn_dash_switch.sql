-- Shows another of the user's orgs (403 for an org that is not theirs).
CREATE OR REPLACE FUNCTION public.cairn_dash_switch(p_token_hash text, p_org uuid)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  PERFORM set_config('cairn.dashboard', 'on', true);
  UPDATE sessions s SET org_id = p_org WHERE s.token_hash = p_token_hash AND s.expires_at > now()
    AND EXISTS (SELECT 1 FROM memberships m WHERE m.user_id = s.user_id AND m.org_id = p_org);
  IF NOT FOUND THEN
    RAISE EXCEPTION 'org: not one of your orgs' USING ERRCODE = 'CN403';
  END IF;
END $function$;
