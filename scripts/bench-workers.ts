/**
 * `npm run bench:workers`: what `cairn serve --workers N` buys on this machine. The Node server
 * (`npm start`'s flags) on the Postgres server, with 1 worker, then 2, for --rounds rounds (1, 2,
 * 1, 2, …: the machine's speed drifts, so each count is measured more than once, alternating).
 * Each run starts on an identical copy of one seeded database (4 orgs, --entries LoCoMo dialog
 * turns written through `remember`), warms up, then measures closed-loop clients sending recall
 * (LoCoMo questions) for --seconds, then remember, then tools/list (the server's own work, with
 * one trivial query). Alongside, it reads the CPU time of the server's processes, of the Postgres
 * backends serving its database, of this load generator, and of the whole machine (the rest is
 * "other": other work on the machine, Postgres's background processes). Prints a table, writes
 * bench/results/workers-<date>.json and its section of BENCHMARKS.md
 * (`--report bench/results/workers-<date>.json` renders a saved run again, measuring nothing).
 *
 *   --workers 1,2   --rounds 2   --seconds 10   --concurrency 16   --entries 2000
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { cairnChildren } from '../test/helpers/processes';
import { rpcClient } from './bench/calls';
import { writeBenchmarkSection } from './benchmarks-md';

const ROOT = join(import.meta.dirname, '..');
const args = Object.fromEntries(
  process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])),
);
const WORKERS = (args.workers || '1,2').split(',').map(Number);
const ROUNDS = Number(args.rounds || 2);
const SECONDS = Number(args.seconds || 10);
const CONCURRENCY = Number(args.concurrency || 16);
const ENTRIES = Number(args.entries || 2000);
const WARMUP_SECONDS = 3;
const ORGS = 4;
const ADMIN_URL = process.env.CAIRN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const TEMPLATE = 'cairn_bench_workers_seed';
const RUN_DB = 'cairn_bench_workers';
const TOKEN = 'bench-workers-admin-token-0123';
const TICKS = 100; // Linux's USER_HZ: /proc's CPU times are in 1/100 s

let DATA_DIR = ''; // artifact bytes (none are written): made by seedTemplate
const urlOf = (db: string) => Object.assign(new URL(ADMIN_URL), { pathname: `/${db}` }).toString();

async function sql(text: string): Promise<Record<string, unknown>[]> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return (await c.query(text)).rows;
  } finally {
    await c.end();
  }
}

// ---------------------------------------------------------------- corpus (LoCoMo, as npm run bench)

function locomo() {
  const data = JSON.parse(readFileSync(join(ROOT, '..', 'shared', 'bench', 'locomo', 'locomo-dev.json'), 'utf8'));
  const turns: string[] = [];
  const questions: string[] = [];
  for (const c of data) {
    for (const [k, v] of Object.entries(c.conversation)) {
      if (!/^session_\d+$/.test(k)) continue;
      for (const t of v as { speaker: string; text: string }[]) turns.push(`${t.speaker}: ${t.text}`);
    }
    for (const q of c.qa) questions.push(q.question);
  }
  return { turns, questions };
}
const corpus = locomo();

// ---------------------------------------------------------------- the server

interface Server {
  child: ChildProcess;
  base: string;
}

async function startCairn(database: string, workers: number): Promise<Server> {
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  const flags = start.split(/\s+/).filter((w) => w.startsWith('--'));
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const child = spawn(
    process.execPath,
    [...flags, join(ROOT, 'bin', 'cairn.js'), 'serve', '--workers', String(workers)],
    {
      env: {
        ...process.env,
        DATABASE_URL: urlOf(database),
        CAIRN_DATA_DIR: DATA_DIR,
        CAIRN_WORKERS: '',
        PORT: String(port),
        CAIRN_ADMIN_TOKEN: TOKEN,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  const base = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    // the primary answers nothing itself: healthy once every worker has started
    if (ok && cairnChildren(child.pid as number).length === (workers > 1 ? workers : 0)) {
      await new Promise((r) => setTimeout(r, 1000));
      return { child, base };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the Cairn server did not start');
}

async function stopCairn(s: Server): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await exited;
}

// ---------------------------------------------------------------- load

/** One JSON-RPC call as the main bench sends it (bench/calls.ts); whether it succeeded. */
function rpc(base: string, key: string, agent: string, method: string, params: Record<string, unknown>) {
  return rpcClient(`${base}/mcp`, key)(method, params, agent).then(
    () => true,
    () => false,
  );
}

const OPS = ['recall', 'remember', 'tools/list'] as const;
type Op = (typeof OPS)[number];
let serial = 0;
function once(base: string, keys: string[], client: number, op: Op): Promise<boolean> {
  const key = keys[client % keys.length] as string;
  const agent = `bench-${client}`;
  const n = serial++;
  if (op === 'tools/list') return rpc(base, key, agent, 'tools/list', {});
  if (op === 'recall') {
    const query = corpus.questions[(n * 7919) % corpus.questions.length] as string;
    return rpc(base, key, agent, 'tools/call', { name: 'recall', arguments: { query, limit: 10 } });
  }
  const turn = corpus.turns[(n * 104_729) % corpus.turns.length] as string;
  const content = `${turn} (#${n})`;
  return rpc(base, key, agent, 'tools/call', { name: 'remember', arguments: { content, scope: 'org' } });
}

/** Closed-loop clients for `seconds`; latencies of the calls. */
async function drive(base: string, keys: string[], op: Op, seconds: number, concurrency: number) {
  const latencies: number[] = [];
  let errors = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async (_, client) => {
      while (performance.now() < end) {
        const t0 = performance.now();
        const ok = await once(base, keys, client, op).catch(() => false);
        latencies.push(performance.now() - t0);
        if (!ok) errors++;
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), errors };
}

// ---------------------------------------------------------------- CPU

const ticksOf = (pid: number) => {
  try {
    const f = readFileSync(`/proc/${pid}/stat`, 'utf8').slice(0, 1000);
    const rest = f.slice(f.lastIndexOf(')') + 2).split(' ');
    return Number(rest[11]) + Number(rest[12]); // utime + stime
  } catch {
    return 0; // gone
  }
};
const machineBusy = () => {
  const [, ...t] = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).trim().split(/\s+/);
  const v = t.map(Number);
  const idle = (v[3] ?? 0) + (v[4] ?? 0);
  return v.slice(0, 8).reduce((a, b) => a + b, 0) - idle;
};
async function backends(database: string): Promise<number[]> {
  const rows = await sql(`SELECT pid FROM pg_stat_activity WHERE datname = '${database}'`);
  return rows.map((r) => Number(r.pid));
}

interface CpuSnapshot {
  server: Map<number, number>;
  postgres: Map<number, number>;
  self: NodeJS.CpuUsage;
  machine: number;
  at: number;
}
async function snapshot(s: Server, database: string): Promise<CpuSnapshot> {
  const serverPids = [s.child.pid as number, ...cairnChildren(s.child.pid as number)];
  const pgPids = await backends(database);
  return {
    server: new Map(serverPids.map((p) => [p, ticksOf(p)])),
    postgres: new Map(pgPids.map((p) => [p, ticksOf(p)])),
    self: process.cpuUsage(),
    machine: machineBusy(),
    at: performance.now(),
  };
}
/** Cores used between two snapshots, by part (a process first seen at the end counts from 0). */
function coresUsed(a: CpuSnapshot, b: CpuSnapshot) {
  const seconds = (b.at - a.at) / 1000;
  const delta = (x: Map<number, number>, y: Map<number, number>) =>
    [...y].reduce((sum, [pid, t]) => sum + t - (x.get(pid) ?? 0), 0) / TICKS / seconds;
  const selfUs = b.self.user + b.self.system - a.self.user - a.self.system;
  const server = delta(a.server, b.server);
  const postgres = delta(a.postgres, b.postgres);
  const loadgen = selfUs / 1e6 / seconds;
  const machine = (b.machine - a.machine) / TICKS / seconds;
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    server: r(server),
    postgres: r(postgres),
    loadgen: r(loadgen),
    other: r(Math.max(0, machine - server - postgres - loadgen)),
    machine: r(machine),
  };
}

// ---------------------------------------------------------------- the runs

async function seedTemplate(): Promise<string[]> {
  DATA_DIR = mkdtempSync(join(tmpdir(), 'cairn-bench-workers-'));
  await sql(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
  await sql(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
  await sql(`CREATE DATABASE ${TEMPLATE}`);
  const s = await startCairn(TEMPLATE, 1);
  try {
    const keys: string[] = [];
    for (let i = 0; i < ORGS; i++) {
      const res = await fetch(`${s.base}/admin/orgs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: `bench-${i}` }),
      });
      keys.push(((await res.json()) as { key: { secret: string } }).key.secret);
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: CONCURRENCY }, async (_, client) => {
        while (next < ENTRIES) {
          next++;
          if (!(await once(s.base, keys, client, 'remember'))) throw new Error('seeding: a remember failed');
        }
      }),
    );
    return keys;
  } finally {
    await stopCairn(s);
  }
}

interface Row {
  round: number;
  workers: number;
  op: Op;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  cpu: ReturnType<typeof coresUsed>;
}

async function measureRun(round: number, workers: number, keys: string[]): Promise<Row[]> {
  await sql(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
  await sql(`CREATE DATABASE ${RUN_DB} TEMPLATE ${TEMPLATE}`);
  const s = await startCairn(RUN_DB, workers);
  const rows: Row[] = [];
  try {
    for (const op of OPS) {
      await drive(s.base, keys, op, WARMUP_SECONDS, CONCURRENCY);
      const before = await snapshot(s, RUN_DB);
      const { latencies, errors } = await drive(s.base, keys, op, SECONDS, CONCURRENCY);
      const cpu = coresUsed(before, await snapshot(s, RUN_DB));
      const pct = (p: number) => Math.round((latencies[Math.floor((p / 100) * latencies.length)] ?? 0) * 10) / 10;
      const row: Row = {
        round,
        workers,
        op,
        requests: latencies.length,
        errors,
        rps: Math.round((latencies.length / SECONDS) * 10) / 10,
        p50: pct(50),
        p95: pct(95),
        cpu,
      };
      console.log(JSON.stringify(row));
      rows.push(row);
    }
  } finally {
    await stopCairn(s);
  }
  return rows;
}

interface Results {
  date: string;
  machine: string;
  command: string;
  seconds: number;
  concurrency: number;
  entries: number;
  rows: Row[];
}

async function measure(): Promise<Results> {
  const keys = await seedTemplate();
  const rows: Row[] = [];
  try {
    for (let round = 1; round <= ROUNDS; round++) {
      for (const workers of WORKERS) rows.push(...(await measureRun(round, workers, keys)));
    }
  } finally {
    await sql(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
    await sql(`DROP DATABASE IF EXISTS ${TEMPLATE} WITH (FORCE)`);
    rmSync(DATA_DIR, { recursive: true, force: true });
  }
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim()}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  const command = `npm run bench:workers -- ${process.argv.slice(2).join(' ')}`.trim();
  return { date, machine, command, seconds: SECONDS, concurrency: CONCURRENCY, entries: ENTRIES, rows };
}

// ---------------------------------------------------------------- report

/** A cell during which other work on the machine took more than this many cores is left out of the means. */
const BUSY = 0.1;

function render(r: Results): string {
  const counts = [...new Set(r.rows.map((row) => row.workers))].sort((a, b) => a - b);
  const busy = r.rows.filter((row) => row.cpu.other > BUSY);
  const mean = (xs: number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;
  const summary = OPS.map((op) => {
    const perWorkers = counts.map((w) =>
      mean(r.rows.filter((row) => row.op === op && row.workers === w && row.cpu.other <= BUSY).map((row) => row.rps)),
    );
    const ratio = Math.round(((perWorkers.at(-1) ?? 0) / (perWorkers[0] || 1)) * 100) / 100;
    return `${op} ${perWorkers.map((rps, i) => `${rps} req/s at ${counts[i]}`).join(', ')} (×${ratio})`;
  });
  const left = busy.length
    ? ` (left out, other work on the machine over ${BUSY} core: ${busy.map((row) => `round ${row.round}, ${row.workers} workers, ${row.op}`).join('; ')})`
    : '';
  return [
    `Run ${r.date} on ${r.machine}; command \`${r.command}\`; Postgres server on the same machine; raw figures in \`bench/results/workers-${r.date}.json\`.`,
    '',
    `Closed loop, ${r.concurrency} clients over 127.0.0.1, ${r.seconds} s per cell after ${WARMUP_SECONDS} s of warm-up; each run on a fresh copy of one database (${ORGS} orgs, ${r.entries} entries); recall asks LoCoMo questions (limit 10), remember writes dialog turns spread over the ${ORGS} orgs, tools/list is the HTTP and MCP stack with one trivial query (the key check): the cell where the server's own CPU is the work. CPU in cores (of ${cpus().length}) over the cell: the server's processes (primary and workers), the Postgres backends of its database, this load generator, and everything else on the machine.`,
    '',
    '| round | workers | op | req/s | p50 ms | p95 ms | errors | CPU server | CPU Postgres | CPU load generator | CPU other |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...r.rows.map(
      (row) =>
        `| ${row.round} | ${row.workers} | ${row.op} | ${row.rps} | ${row.p50} | ${row.p95} | ${row.errors} | ${row.cpu.server} | ${row.cpu.postgres} | ${row.cpu.loadgen} | ${row.cpu.other} |`,
    ),
    '',
    `Mean over the rounds${left}: ${summary.join('; ')}.`,
  ].join('\n');
}

// --report FILE: render a saved run again, measuring nothing
const results: Results = args.report ? JSON.parse(readFileSync(args.report, 'utf8')) : await measure();
if (!args.report) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', `workers-${results.date}.json`),
    `${JSON.stringify(results, null, 2)}\n`,
  );
}
const md = render(results);
console.log(md);
writeBenchmarkSection('workers', 'All cores: serve --workers (npm run bench:workers)', md);
