/**
 * Starts the real Node server on a free loopback port, on PGlite or on the Postgres server, with
 * its own data directory, and gives tests what they need to drive and inspect it.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createOperator } from '../../src/auth/operator';
import { type RunningServer, startServer } from '../../src/node';
import { createTestDatabase, type TestDatabase } from './postgres';

export type DbKind = 'pglite' | 'postgres';
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer {
  db: DbKind;
  url: string;
  mcpUrl: string;
  server: RunningServer;
  dataDir: string;
  blobsDir: string;
  /** Superuser access to the Postgres test database (undefined on PGlite). */
  pg: TestDatabase | undefined;
  createOrg(name: string): Promise<{ orgId: string; key: string; keyId: string }>;
  createKey(orgId: string, name?: string): Promise<{ key: string; keyId: string }>;
  revokeKey(keyId: string): Promise<void>;
  close(): Promise<void>;
}

export async function startTestServer(db: DbKind, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-test-'));
  const pgdb = db === 'postgres' ? await createTestDatabase() : undefined;
  const server = await startServer({
    PORT: '0',
    HOST: '127.0.0.1',
    CAIRN_DATA_DIR: dataDir,
    CAIRN_ADMIN_TOKEN: ADMIN_TOKEN,
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    ...env,
  });
  const ops = createOperator(server.store, 'test');
  return {
    db,
    url: server.url,
    mcpUrl: `${server.url}/mcp`,
    server,
    dataDir,
    blobsDir: join(dataDir, 'blobs'),
    pg: pgdb,
    async createOrg(name) {
      const r = await ops.createOrg(name);
      return { orgId: r.org.id, key: r.key.secret, keyId: r.key.id };
    },
    async createKey(orgId, name = 'test key') {
      const r = await ops.createKey(orgId, name);
      return { key: r.key.secret, keyId: r.key.id };
    },
    async revokeKey(keyId) {
      await server.store.admin.revokeKey(keyId, 'test');
    },
    async close() {
      await server.close();
      await pgdb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
