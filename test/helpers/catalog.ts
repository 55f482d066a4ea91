/**
 * A database's schema as comparable text, one sorted list per kind of object: what the upgrade
 * test compares between an upgraded database and a fresh one.
 */
export type Query = (sql: string) => Promise<Record<string, unknown>[]>;

const PUBLIC = `'public'::regnamespace`;

/** Functions of the public schema that no extension owns. */
export const OWN_FUNCTIONS = `FROM pg_proc p WHERE p.pronamespace = ${PUBLIC}
  AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.classid = 'pg_proc'::regclass AND d.objid = p.oid AND d.deptype = 'e')`;

const CATALOG = {
  columns: `SELECT table_name || '.' || column_name || ' ' || data_type || ' null=' || is_nullable
      || ' default=' || coalesce(column_default, '') || ' generated=' || coalesce(generation_expression, '') AS x
    FROM information_schema.columns WHERE table_schema = 'public'`,
  constraints: `SELECT conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid) AS x
    FROM pg_constraint WHERE connamespace = ${PUBLIC}`,
  indexes: `SELECT indexdef AS x FROM pg_indexes WHERE schemaname = 'public'`,
  rowSecurity: `SELECT relname || ' enabled=' || relrowsecurity || ' forced=' || relforcerowsecurity AS x
    FROM pg_class WHERE relnamespace = ${PUBLIC} AND relkind IN ('r', 'p')`,
  policies: `SELECT tablename || ' ' || policyname || ' ' || permissive || ' ' || roles::text || ' ' || cmd
      || ' using=' || coalesce(qual, '') || ' check=' || coalesce(with_check, '') AS x
    FROM pg_policies WHERE schemaname = 'public'`,
  triggers: `SELECT pg_get_triggerdef(oid) AS x FROM pg_trigger WHERE NOT tgisinternal`,
  functions: `SELECT pg_get_functiondef(p.oid) || ' acl=' || coalesce(p.proacl::text, '') AS x ${OWN_FUNCTIONS}`,
  tableGrants: `SELECT grantee || ' ' || privilege_type || ' ' || table_name AS x
    FROM information_schema.role_table_grants WHERE table_schema = 'public'`,
  columnGrants: `SELECT grantee || ' ' || privilege_type || ' ' || table_name || '.' || column_name AS x
    FROM information_schema.column_privileges WHERE table_schema = 'public'`,
  types: `SELECT t.typname || ' ' || t.typtype::text || ' ' || coalesce(
      (SELECT string_agg(e.enumlabel, ',' ORDER BY e.enumsortorder) FROM pg_enum e WHERE e.enumtypid = t.oid), '') AS x
    FROM pg_type t WHERE t.typnamespace = ${PUBLIC} AND t.typtype IN ('e', 'd')`,
  sequences: `SELECT sequencename || ' ' || data_type AS x FROM pg_sequences WHERE schemaname = 'public'`,
  extensions: `SELECT extname AS x FROM pg_extension`,
  roles: `SELECT rolname || ' login=' || rolcanlogin || ' bypassrls=' || rolbypassrls AS x
    FROM pg_roles WHERE rolname = 'cairn_app'`,
} as const;

export type Catalog = Record<keyof typeof CATALOG, string[]>;

export async function catalog(query: Query): Promise<Catalog> {
  const out = {} as Catalog;
  for (const [kind, sql] of Object.entries(CATALOG) as [keyof Catalog, string][]) {
    out[kind] = (await query(sql)).map((r) => String(r.x)).sort();
  }
  return out;
}
