/**
 * A fresh database on the real Postgres server for each test file. The server is the one the
 * machine runs (docs/develop.md, "Tests"); CAIRN_TEST_PG_URL points elsewhere.
 */
import pg from 'pg';

export const PG_ADMIN_URL = process.env.CAIRN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export interface TestDatabase {
  url: string;
  /** A superuser client on the test database, for inspecting what is stored. */
  query<T extends Record<string, unknown> = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs statements on a fresh connection as `role` (e.g. the service role, bound by row-level security). */
  queryAs<T extends Record<string, unknown> = Record<string, unknown>>(
    role: string,
    sql: string,
    params?: unknown[],
  ): Promise<T[]>;
  drop(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function createTestDatabase(): Promise<TestDatabase> {
  const name = `cairn_test_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `tests need the Postgres server at ${PG_ADMIN_URL} (set CAIRN_TEST_PG_URL): ${(err as Error).message}`,
    );
  }
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = withDatabase(PG_ADMIN_URL, name);
  const inspector = new pg.Pool({ connectionString: url, max: 2 });
  inspector.on('error', () => {}); // DROP DATABASE … WITH (FORCE) ends any straggler
  return {
    url,
    async query(sql, params) {
      return (await inspector.query(sql, params)).rows;
    },
    async queryAs(role, sql, params) {
      const c = new pg.Client({ connectionString: url, options: `-c role=${role}` });
      await c.connect();
      try {
        const r = (await c.query(sql, params)) as pg.QueryResult | pg.QueryResult[];
        return (Array.isArray(r) ? (r.at(-1)?.rows ?? []) : r.rows) as never;
      } finally {
        await c.end();
      }
    },
    async drop() {
      await inspector.end();
      const c = new pg.Client({ connectionString: PG_ADMIN_URL });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}
