-- Raised for an id the caller cannot use: 403 when it belongs to another org, else not found.
-- An id in the caller's org that the caller may not see (another agent's private entry) is
-- "not found", revealing nothing.
CREATE OR REPLACE FUNCTION public.cairn_missing(p_org uuid, p_id uuid, p_what text)
 RETURNS void
 LANGUAGE plpgsql
AS $function$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM entries WHERE org_id = p_org AND id = p_id)
     AND NOT EXISTS (SELECT 1 FROM artifacts WHERE org_id = p_org AND id = p_id)
     AND EXISTS (SELECT 1 FROM object_ids WHERE id = p_id) THEN
    RAISE EXCEPTION 'this id belongs to another org' USING ERRCODE = 'CN403';
  END IF;
  RAISE EXCEPTION '% % not found', p_what, p_id USING ERRCODE = 'CN404';
END $function$;
