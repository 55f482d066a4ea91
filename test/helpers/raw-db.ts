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
import { pgMigrationClient } from '../../src/storage/pg/client';
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
      exec: async (sql) => {
        await client.exec(sql);
      },
      query: async (sql, params) => (await client.query<Record<string, unknown>>(sql, params)).rows,
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
