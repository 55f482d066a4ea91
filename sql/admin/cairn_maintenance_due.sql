-- The service's own upkeep (src/storage/pg/maintain.ts), for databases nothing else maintains
-- (PGlite has no autovacuum; a Postgres server may run without it): the tables that grew by a
-- fifth (and 64 KiB) since their last VACUUM or ANALYZE, or never had one — their planner
-- statistics are stale and they may hold dead rows. relpages is what the last VACUUM or ANALYZE
-- counted (autovacuum's runs included), so where autovacuum keeps up, nothing is due. A table
-- with rows that no ANALYZE has seen since the server's statistics began is due too: CREATE INDEX
-- sets relpages and reltuples without gathering column statistics (a migration adding an index to
-- a never-analysed table hid it from the first rule, and the embedded benchmark's remember fell to
-- a scan: 50 ms a call at 100k). The counters are the cumulative statistics (pg_stat_get_*), which
-- any role may read; pg_stats would hide a table under row security from the service's role.
CREATE OR REPLACE FUNCTION public.cairn_maintenance_due()
 RETURNS TABLE(relname text, pages bigint)
 LANGUAGE sql
 STABLE
AS $function$
  SELECT c.relname::text, pg_relation_size(c.oid) / current_setting('block_size')::bigint AS pages
  FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r'
    AND (pg_relation_size(c.oid) / current_setting('block_size')::bigint
          > CASE WHEN c.reltuples < 0 THEN 0 ELSE c.relpages * 1.2 + 8 END
      OR (c.reltuples > 0 AND pg_stat_get_analyze_count(c.oid) + pg_stat_get_autoanalyze_count(c.oid) = 0))
  ORDER BY 2
$function$;
