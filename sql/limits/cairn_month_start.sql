-- The first day (UTC) of the calendar month holding p_at: the tool-call quota's period.
CREATE OR REPLACE FUNCTION public.cairn_month_start(p_at timestamp with time zone)
 RETURNS date
 LANGUAGE sql
 IMMUTABLE
AS $function$
  SELECT date_trunc('month', p_at AT TIME ZONE 'UTC')::date
$function$;
