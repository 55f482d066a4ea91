-- Dashboard accounts (docs/design.md, "Dashboard"): users, the orgs they belong to, browser
-- sessions. Tool calls never reach these tables: row-level security lets only the dashboard's
-- functions, which set cairn.dashboard for their statement, see them.
CREATE OR REPLACE FUNCTION public.cairn_dashboard()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(current_setting('cairn.dashboard', true), '') = 'on'
$function$;
