-- The time a recall reads the memory as of (`as_of`, left by cairn_recall_for in cairn.as_of for
-- the statement), or 'infinity' for now: entries written after it do not exist yet, and
-- supersession and expiry are judged then (docs/design.md, "Memory across time").
CREATE OR REPLACE FUNCTION public.cairn_as_of()
 RETURNS timestamp with time zone
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(nullif(current_setting('cairn.as_of', true), '')::timestamptz, 'infinity'::timestamptz)
$function$;
