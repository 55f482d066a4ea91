/**
 * `npm run load`: the long load run (issue: prove it holds). Starts Cairn's Node server (`npm start`'s
 * flags) on a fresh Postgres database, or on the embedded one with `--embedded`, makes two orgs
 * (one under a rate limit of 1,200 requests per minute per key), and runs test/load/run.ts: agents
 * writing, recalling and storing artifacts concurrently for --seconds, then every acknowledged write
 * looked for by recall and each ledger verified. Prints the figures, writes
 * bench/results/load-<date>.json and its section of BENCHMARKS.md. Exits non-zero if anything was
 * lost or failed other than the configured 429s.
 *
 *   --seconds 180   --agents 64   [--embedded]
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runLoad } from '../test/load/run';
import { writeBenchmarkSection } from './benchmarks-md';

const ROOT = join(import.meta.dirname, '..');
const args = Object.fromEntries(
  process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])),
);
const SECONDS = Number(args.seconds || 180);
const AGENTS = Number(args.agents || 64);
const EMBEDDED = 'embedded' in args;
const ADMIN_URL = process.env.CAIRN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TOKEN = 'load-admin-token-0123456789';
const PORT = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${PORT}`;

async function freshDatabase(): Promise<string> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query('DROP DATABASE IF EXISTS cairn_load WITH (FORCE)');
  await c.query('CREATE DATABASE cairn_load');
  await c.end();
  const u = new URL(ADMIN_URL);
  u.pathname = '/cairn_load';
  return u.toString();
}

async function startCairn(): Promise<ChildProcess> {
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const flags = start.split(/\s+/).filter((w) => w.startsWith('--'));
  const child = spawn(process.execPath, [...flags, join(ROOT, 'bin', 'cairn.js'), 'serve'], {
    env: {
      ...process.env,
      DATABASE_URL: EMBEDDED ? '' : await freshDatabase(),
      CAIRN_DATA_DIR: mkdtempSync(join(tmpdir(), 'cairn-load-')),
      PORT: String(PORT),
      CAIRN_ADMIN_TOKEN: TOKEN,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${base}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the Cairn server did not start');
}

const admin = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${base}/admin${path}`, {
    method,
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`admin ${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as unknown;
};

const server = await startCairn();
try {
  const orgs = [];
  for (const name of ['load-a', 'load-b']) {
    const r = (await admin('POST', '/orgs', { name })) as { org: { id: string }; key: { secret: string } };
    orgs.push({ id: r.org.id, key: r.key.secret });
  }
  const limited = (orgs[1] as { id: string }).id;
  await admin('PUT', '/plans/load-limited', { requests_per_minute: 1200 });
  await admin('PUT', `/orgs/${limited}/plan`, { plan: 'load-limited' });
  console.log(`load: ${AGENTS} agents for ${SECONDS} s on ${EMBEDDED ? 'the embedded database' : 'Postgres'}…`);
  const result = await runLoad({
    mcpUrl: `${base}/mcp`,
    adminUrl: `${base}/admin`,
    adminToken: TOKEN,
    orgs,
    agents: AGENTS,
    seconds: SECONDS,
    beforeChecks: async () => {
      await admin('PUT', `/orgs/${limited}/plan`, { plan: null });
    },
  });
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', `load-${date}.json`),
    `${JSON.stringify({ date, machine, ...result }, null, 2)}\n`,
  );
  const ok =
    result.errors.length === 0 &&
    result.missing.length === 0 &&
    result.ledgers.every((l) => l.ok && l.events === l.expected);
  const md = [
    `Run ${date} on ${machine}; command \`npm run load -- ${process.argv.slice(2).join(' ')}\`; ${EMBEDDED ? 'embedded database' : 'Postgres server'}; raw figures in \`bench/results/load-${date}.json\`.`,
    '',
    '| agents | seconds | requests | req/s | p50 ms | p95 ms | p99 ms | writes | recalls | artifacts | 429 (configured) | other errors | acknowledged writes not found | ledgers |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    `| ${result.agents} | ${result.seconds} | ${result.requests} | ${result.rps} | ${result.p50} | ${result.p95} | ${result.p99} | ${result.writes} | ${result.recalls} | ${result.artifacts} | ${result.limited} | ${result.errors.length} | ${result.missing.length} | ${result.ledgers.map((l) => `${l.ok ? 'verified' : `BROKEN at ${l.broken_at}`}, ${l.events} events (${l.expected} expected)`).join('; ')} |`,
    '',
    ok
      ? 'Every acknowledged write was found by recall afterwards; each ledger is contiguous, verifies and holds exactly the acknowledged writes; no error but the configured 429s.'
      : '**FAILED**: see the raw figures.',
    '',
    "Requests count the 429s. Latency is the closed loop's: the agents share 2 cores and wait for one another. An org's writes are serialised by its ledger's hash chain (one head row, locked from the append to the commit), so two orgs write about as fast as two writers in a row; recalls run alongside.",
    '',
    'Minute by minute, as the orgs grow (the service keeps its own database: src/storage/pg/maintain.ts):',
    '',
    '| minute | requests | p50 ms | p95 ms | recall p95 ms |',
    '| --- | --- | --- | --- | --- |',
    ...result.minutes.map((m) => `| ${m.minute} | ${m.requests} | ${m.p50} | ${m.p95} | ${m.recall_p95} |`),
  ].join('\n');
  writeBenchmarkSection(
    EMBEDDED ? 'load-embedded' : 'load',
    EMBEDDED ? 'Load on the embedded database (npm run load -- --embedded)' : 'Load (npm run load)',
    md,
  );
  console.log(md);
  process.exitCode = ok ? 0 : 1;
} finally {
  server.kill('SIGTERM');
}
