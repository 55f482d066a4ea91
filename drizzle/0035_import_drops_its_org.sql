-- A refused import leaves nothing behind, the org it made included (sql/admin/cairn_admin_import_end.sql;
-- docs/design.md, "Export and import"): the service's role may delete an org, which row-level
-- security limits to the org its statement is pinned to as operator.
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'cairn_app') THEN
    EXECUTE 'GRANT DELETE ON orgs TO cairn_app';
  END IF;
END $$;
