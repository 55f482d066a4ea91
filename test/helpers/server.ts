/**
 * Starts the real service for a test file and gives tests what they need to drive and inspect it:
 * - `pglite`: the Node server on the embedded database, in its own data directory;
 * - `postgres`: the Node server on a fresh database of the Postgres server;
 * - `workers`: the Worker under `wrangler dev` (workerd, local R2), reaching a fresh Postgres
 *   database through Neon's HTTP protocol (test/fixtures/neon-http.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Store } from '../../src/domain/ports';
import { startServer } from '../../src/node/node';
import { adminActions } from '../../src/operator/admin';
import { openStore } from '../../src/storage/pg/client';
import { startNeonHttpFixture } from '../fixtures/neon-http';
import { createTestDatabase, type TestDatabase } from './postgres';

export type DbKind = 'pglite' | 'postgres' | 'workers';
/** The Node server on both databases. */
export const DB_KINDS: DbKind[] = ['pglite', 'postgres'];
/** The same, plus the Worker under wrangler dev: for the end-to-end MCP suites. */
export const TARGETS: DbKind[] = ['pglite', 'postgres', 'workers'];
export const ADMIN_TOKEN = 'test-admin-token-0123456789';

export interface TestServer {
  db: DbKind;
  url: string;
  mcpUrl: string;
  port: number;
  /** The service's store (the Node server's own; for workers, one on the same database). */
  store: Store;
  dataDir: string;
  /** Where the Node server keeps artifact bytes (not used by workers, which use R2). */
  blobsDir: string;
  /** Superuser access to the Postgres test database (undefined on PGlite). */
  pg: TestDatabase | undefined;
  createOrg(name: string): Promise<{ orgId: string; key: string; keyId: string }>;
  /** `agent`: bind the key to that agent. */
  createKey(orgId: string, name?: string, agent?: string): Promise<{ key: string; keyId: string }>;
  revokeKey(keyId: string): Promise<void>;
  /** Stops the service but keeps its data (PGlite data can then be opened directly). */
  stop(): Promise<void>;
  close(): Promise<void>;
}

/** `env`: the service's variables, or a function of the test database that makes them. */
export async function startTestServer(
  db: DbKind,
  env: Record<string, string> | ((pg: TestDatabase | undefined) => Record<string, string>) = {},
): Promise<TestServer> {
  const dataDir = await mkdtemp(join(tmpdir(), 'cairn-test-'));
  const pgdb = db === 'pglite' ? undefined : await createTestDatabase();
  const vars = { CAIRN_ADMIN_TOKEN: ADMIN_TOKEN, ...(typeof env === 'function' ? env(pgdb) : env) };
  const running =
    db === 'workers' ? await startWrangler(dataDir, pgdb as TestDatabase, vars) : await startNode(dataDir, pgdb, vars);
  const ops = adminActions(running.store, 'test');
  let stopped: Promise<void> | undefined;
  const stop = () => {
    stopped ??= running.stop();
    return stopped;
  };
  return {
    db,
    url: running.url,
    mcpUrl: `${running.url}/mcp`,
    port: running.port,
    store: running.store,
    dataDir,
    blobsDir: join(dataDir, 'blobs'),
    pg: pgdb,
    async createOrg(name) {
      const r = await ops.createOrg(name);
      return { orgId: r.org.id, key: r.key.secret, keyId: r.key.id };
    },
    async createKey(orgId, name = 'test key', agent) {
      const r = await ops.createKey(orgId, name, agent ?? null);
      return { key: r.key.secret, keyId: r.key.id };
    },
    async revokeKey(keyId) {
      await running.store.admin.revokeKey(keyId, 'test');
    },
    stop,
    async close() {
      await stop();
      await pgdb?.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

interface Running {
  url: string;
  port: number;
  store: Store;
  stop(): Promise<void>;
}

async function startNode(
  dataDir: string,
  pgdb: TestDatabase | undefined,
  vars: Record<string, string>,
): Promise<Running> {
  const server = await startServer({
    PORT: '0',
    HOST: '127.0.0.1',
    CAIRN_DATA_DIR: dataDir,
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    ...vars,
  });
  return { url: server.url, port: server.port, store: server.store, stop: () => server.close() };
}

const WRANGLER = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const ROOT = join(import.meta.dirname, '..', '..');

async function startWrangler(dataDir: string, pgdb: TestDatabase, vars: Record<string, string>): Promise<Running> {
  const store = await openStore({ databaseUrl: pgdb.url, poolSize: 2 }); // migrates, then serves the test's own admin calls
  const neon = await startNeonHttpFixture();
  const port = await freePort();
  const allVars: Record<string, string> = {
    DATABASE_URL: pgdb.url,
    CAIRN_NEON_HTTP_ENDPOINT: neon.endpoint,
    CAIRN_ALLOWED_HOSTS: 'localhost,127.0.0.1',
    ...vars,
  };
  const args = [
    WRANGLER,
    'dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--inspector-port',
    String(await freePort()),
  ];
  args.push('--persist-to', join(dataDir, 'wrangler'), '--log-level', 'warn', '--show-interactive-dev-session=false');
  for (const [k, v] of Object.entries(allVars)) if (v !== '') args.push('--var', `${k}:${v}`);
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', CI: 'true', NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForHealth(url, child);
  } catch (err) {
    child.kill('SIGKILL');
    await neon.close();
    await store.close();
    throw err;
  }
  return {
    url,
    port,
    store,
    async stop() {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      await neon.close();
      await store.close();
    },
  };
}

async function waitForHealth(url: string, child: ChildProcess): Promise<void> {
  let output = '';
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited ${child.exitCode}:\n${output}`);
    const ok = await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`wrangler dev did not become healthy in 60 s:\n${output}`);
}

/**
 * A port for `wrangler dev`, which binds it seconds after it is chosen. Every other server of the
 * tests listens on port 0 and gets one of the kernel's ephemeral ports (32768–60999), so a port of
 * that range freed here could be taken in between by another test's server, whose /healthz then
 * answers for a Worker that never started (seen once in CI: a suite's keys were refused by the
 * wrong server). These are below that range, and each vitest worker has its own 500, taken from a
 * random start (each test file loads this module again; a port just closed may still hold
 * connections in TIME_WAIT).
 */
let nextPort = Math.floor(Math.random() * 500);
async function freePort(): Promise<number> {
  const base = 20_000 + (Number(process.env.VITEST_POOL_ID ?? 0) % 20) * 500;
  for (let tries = 0; tries < 500; tries++) {
    const port = base + (nextPort++ % 500);
    if (await canListen(port)) return port;
  }
  throw new Error(`no free port in ${base}–${base + 499}`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const s = createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });
}
