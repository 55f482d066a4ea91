-- True while a dashboard function has set `cairn.dashboard` for its statement: only then do the
-- policies of users, memberships and sessions (docs/design.md, "Dashboard") let rows through.
-- Tool calls never set it.
CREATE OR REPLACE FUNCTION public.cairn_dashboard()
 RETURNS boolean
 LANGUAGE sql
 STABLE
AS $function$
  SELECT coalesce(current_setting('cairn.dashboard', true), '') = 'on'
$function$;
