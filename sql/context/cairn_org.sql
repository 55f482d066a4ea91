-- The org a statement is pinned to (transaction-local `cairn.org`), or NULL: every org table's
-- row-level security policy compares against it.
CREATE OR REPLACE FUNCTION public.cairn_org()
 RETURNS uuid
 LANGUAGE sql
 STABLE
AS $function$
  SELECT nullif(current_setting('cairn.org', true), '')::uuid
$function$;
