-- The service keeps its own database when nothing else does (src/storage/pg/maintain.ts): on
-- Postgres 17 and later (PGlite included), the service's role may VACUUM and ANALYZE the tables
-- itself; on older servers the service does it over its connecting (owning) role.
DO $$
BEGIN
  IF current_setting('server_version_num')::int >= 170000
     AND EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT MAINTAIN ON ALL TABLES IN SCHEMA public TO cairn_app';
    EXECUTE 'ALTER DEFAULT PRIVILEGES IN SCHEMA public GRANT MAINTAIN ON TABLES TO cairn_app';
  END IF;
END $$;
