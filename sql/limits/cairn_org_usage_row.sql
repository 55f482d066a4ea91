-- Every org has its usage row from its first statement on.
CREATE OR REPLACE FUNCTION public.cairn_org_usage_row()
 RETURNS trigger
 LANGUAGE plpgsql
AS $function$
BEGIN
  INSERT INTO org_usage (org_id, month, month_calls, stored_bytes)
    VALUES (NEW.id, cairn_month_start(now()), 0, 0);
  RETURN NULL;
END $function$;
