/**
 * A bare database of either kind, not yet migrated, for tests below the service: the migration
 * step, the upgrade from a previous release, SQL functions called directly.
 */
import { PGlite } from '@electric-sql/pglite';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { uuidv7 } from '../../src/domain/ids';
import { pgliteMigrationClient, pgMigrationClient } from '../../src/storage/pg/client';
import type { MigrationClient } from '../../src/storage/pg/migrate';
import { createTestDatabase } from './postgres';

export type RawKind = 'pglite' | 'postgres';
export const RAW_KINDS: RawKind[] = ['pglite', 'postgres'];

export interface RawDb extends MigrationClient {
  /** Migrates with drizzle-orm's own migrator, as releases before the function files did. */
  drizzleMigrate(folder: string): Promise<void>;
  close(): Promise<void>;
}

export async function rawDatabase(kind: RawKind): Promise<RawDb> {
  if (kind === 'pglite') {
    const client = await PGlite.create('memory://');
    return {
      ...pgliteMigrationClient(client),
      drizzleMigrate: (folder) => migratePglite(drizzlePglite({ client }), { migrationsFolder: folder }),
      close: () => client.close(),
    };
  }
  const db = await createTestDatabase();
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  return {
    ...pgMigrationClient(client),
    drizzleMigrate: (folder) => migratePg(drizzlePg({ client }), { migrationsFolder: folder }),
    async close() {
      await client.end();
      await db.drop();
    },
  };
}

/** The key every org made by `inTransaction` has (its hash, as the tool functions take it). */
export const TEST_KEY_HASH = 'sql-test-key-hash';

/**
 * Runs `body` in a transaction holding one new org (and its key, TEST_KEY_HASH), then rolls
 * everything back, so tests calling SQL functions directly leave nothing behind.
 */
export async function inTransaction(db: RawDb, body: (org: string) => Promise<void>): Promise<void> {
  await db.exec('BEGIN');
  try {
    const org = uuidv7();
    const key = { id: uuidv7(), hash: TEST_KEY_HASH, prefix: 'svc_t', name: 't' };
    await db.query(`SELECT cairn_admin_create_org($1::uuid, 'o', $2::jsonb, 'test')`, [org, JSON.stringify(key)]);
    await body(org);
  } finally {
    await db.exec('ROLLBACK');
  }
}

/** The SQLSTATE, message and JSON detail a statement raises, or undefined; the transaction goes on. */
export async function raised(db: RawDb, sql: string, params: unknown[] = []) {
  await db.exec('SAVEPOINT probe');
  try {
    await db.query(sql, params);
    return undefined;
  } catch (err) {
    const e = err as { code?: string; detail?: string; message: string };
    return { code: e.code, message: e.message, detail: e.detail ? JSON.parse(e.detail) : undefined };
  } finally {
    await db.exec('ROLLBACK TO SAVEPOINT probe');
  }
}

/**
 * A tool function called as the service calls it, with TEST_KEY_HASH: `SELECT cairn_<op>(…)`; with
 * `meter` (the operation's name), inside `cairn_meter` as src/storage/pg/store.ts sends it.
 */
export async function callTool<T = Record<string, unknown>>(
  db: RawDb,
  fn: string,
  agent: string,
  project: string | null,
  args: Record<string, unknown>,
  meter?: string,
): Promise<T> {
  const params = [TEST_KEY_HASH, agent, project, JSON.stringify(args)];
  const rows = meter
    ? await db.query(`SELECT cairn_meter($5, ${fn}($1, $2, $3, $4::jsonb)) AS r`, [...params, meter])
    : await db.query(`SELECT ${fn}($1, $2, $3, $4::jsonb) AS r`, params);
  return rows[0]?.r as T;
}
