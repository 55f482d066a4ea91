-- The service's own upkeep (src/storage/pg/maintain.ts), for databases nothing else maintains
-- (PGlite has no autovacuum; a Postgres server may run without it): the tables that grew by a
-- fifth (and 64 KiB) since their last VACUUM or ANALYZE, or never had one — their planner
-- statistics are stale and they may hold dead rows. relpages is what the last VACUUM or ANALYZE
-- counted (autovacuum's runs included), so where autovacuum keeps up, nothing is due.
CREATE OR REPLACE FUNCTION public.cairn_maintenance_due()
 RETURNS TABLE(relname text, pages bigint)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT c.relname::text, pg_relation_size(c.oid) / current_setting('block_size')::bigint AS pages
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r'
    AND pg_relation_size(c.oid) / current_setting('block_size')::bigint
      > CASE WHEN c.reltuples < 0 THEN 0 ELSE c.relpages * 1.2 + 8 END
  ORDER BY 2
$function$;
