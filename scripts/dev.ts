/**
 * `npm run dev`: the Worker under `wrangler dev` (workerd, local R2) against the local Postgres
 * server. Neon's HTTP driver reaches Postgres through the local SQL-over-HTTP endpoint of
 * test/fixtures/neon-http.ts, the same protocol Neon's edge speaks.
 *   DATABASE_URL  default postgres://postgres@127.0.0.1:5432/cairn_dev (created when missing)
 *   PORT          default 8787
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import pg from 'pg';
import { adminActions } from '../src/operator/admin';
import { openStore } from '../src/storage/pg/client';
import { startNeonHttpFixture } from '../test/fixtures/neon-http';

const databaseUrl = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/cairn_dev';
const port = process.env.PORT ?? '8787';

async function ensureDatabase(url: string) {
  const name = new URL(url).pathname.slice(1);
  const admin = new URL(url);
  admin.pathname = '/postgres';
  const c = new pg.Client({ connectionString: admin.toString() });
  await c.connect();
  const { rowCount } = await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (!rowCount) await c.query(`CREATE DATABASE "${name.replace(/"/g, '""')}"`);
  await c.end();
}

await ensureDatabase(databaseUrl);
const store = await openStore({ databaseUrl, poolSize: 1 }); // applies migrations
if ((await store.admin.listOrgs()).length === 0) {
  const created = await adminActions(store, 'first-start').createOrg('default');
  console.log(`First start: created org "default" and its first API key (shown once):\n\n  ${created.key.secret}\n`);
}
await store.close();

const neon = await startNeonHttpFixture();
const wrangler = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const child = spawn(
  process.execPath,
  [
    wrangler,
    'dev',
    '--port',
    port,
    '--var',
    `DATABASE_URL:${databaseUrl}`,
    '--var',
    `CAIRN_NEON_HTTP_ENDPOINT:${neon.endpoint}`,
  ],
  { stdio: 'inherit', env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
);
console.log(
  `Cairn (Workers, local) will serve MCP at http://localhost:${port}/mcp — database ${new URL(databaseUrl).pathname.slice(1)}`,
);
const stop = () => child.kill('SIGTERM');
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
child.once('exit', async (code) => {
  await neon.close();
  process.exit(code ?? 0);
});
