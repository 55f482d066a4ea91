/**
 * `npm run bench`: throughput and latency of Cairn's Node server on the Postgres server, with the
 * reference `@modelcontextprotocol/server-memory` side by side. Prints a table, writes
 * bench/results/<date>.json and the table in BENCHMARKS.md.
 *
 *   --sizes 1000,10000,100000,1000000   corpus sizes (entries in one org)
 *   --concurrency 1,16,64               closed-loop clients
 *   --seconds 5                         per measurement
 *   --reference-sizes 1000,10000        corpus sizes for server-memory (it rewrites one JSON file per call)
 *
 * Each size is warmed with SECONDS of recalls before it is measured (steady state). The floor is `tools/list`: the same HTTP and MCP stack, answering after one trivial query (the
 * key check). Besides the cells of one operation each, floor and recall are measured together at
 * c = 1, alternating, so that their ratio is taken on the same machine state. The corpus is LoCoMo dialog turns (../shared/bench/locomo), one entry per turn, repeated with a
 * serial number up to the size; queries are LoCoMo questions. Bulk loading writes entries with
 * SQL (no ledger events); measured calls go through MCP over HTTP like any client.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import pg from 'pg';
import { adminActions } from '../src/admin';
import { openStore } from '../src/storage/pg/client';
import { writeBenchmarkSection } from './benchmarks-md';

const ROOT = join(import.meta.dirname, '..');
const args = Object.fromEntries(
  process.argv.slice(2).flatMap((a, i, all) => (a.startsWith('--') ? [[a.slice(2), all[i + 1] ?? '']] : [])),
);
const nums = (s: string | undefined, d: string) => (s ?? d).split(',').map(Number);
const SIZES = nums(args.sizes, '1000,10000,100000,1000000');
const CONCURRENCY = nums(args.concurrency, '1,16,64');
const SECONDS = Number(args.seconds ?? 5);
const REF_SIZES = nums(args['reference-sizes'], '1000,10000');
const ADMIN_URL = process.env.CAIRN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

interface Stat {
  op: string;
  size: number;
  concurrency: number;
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
}

// ---------------------------------------------------------------- corpus

function locomo() {
  const data = JSON.parse(readFileSync(join(ROOT, '..', 'shared', 'bench', 'locomo', 'locomo-dev.json'), 'utf8'));
  const turns: string[] = [];
  const questions: string[] = [];
  for (const c of data) {
    for (const [k, v] of Object.entries(c.conversation)) {
      if (!/^session_\d+$/.test(k)) continue;
      const date = c.conversation[`${k}_date_time`];
      for (const t of v as { speaker: string; text: string }[]) turns.push(`[${date}] ${t.speaker}: ${t.text}`);
    }
    for (const q of c.qa) questions.push(q.question);
  }
  return { turns, questions };
}

// ---------------------------------------------------------------- load generator

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/**
 * Closed-loop clients for SECONDS, each sending the operations in turn (request i is op i mod n),
 * so that operations measured together see the same machine: on a shared VM the speed drifts by a
 * third between cells, which would otherwise land in their ratio. Throughput is per operation.
 */
async function measureTogether(
  size: number,
  concurrency: number,
  ops: { op: string; once: (i: number) => Promise<boolean> }[],
): Promise<Stat[]> {
  const latencies = ops.map(() => [] as number[]);
  const errors = ops.map(() => 0);
  let counter = 0;
  const end = performance.now() + SECONDS * 1000;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < end) {
        const i = counter++;
        const k = i % ops.length;
        const t0 = performance.now();
        const ok = await (ops[k] as (typeof ops)[number]).once(Math.floor(i / ops.length)).catch(() => false);
        (latencies[k] as number[]).push(performance.now() - t0);
        if (!ok) errors[k] = (errors[k] as number) + 1;
      }
    }),
  );
  const r = (x: number) => Math.round(x * 100) / 100;
  return ops.map(({ op }, k) => {
    const l = (latencies[k] as number[]).sort((a, b) => a - b);
    return {
      op,
      size,
      concurrency,
      requests: l.length,
      errors: errors[k] as number,
      rps: r(l.length / SECONDS),
      p50: r(percentile(l, 50)),
      p95: r(percentile(l, 95)),
      p99: r(percentile(l, 99)),
    };
  });
}

async function measure(
  op: string,
  size: number,
  concurrency: number,
  once: (i: number) => Promise<boolean>,
): Promise<Stat> {
  return (await measureTogether(size, concurrency, [{ op, once }]))[0] as Stat;
}

// ---------------------------------------------------------------- Cairn

async function freshDatabase(name: string): Promise<string> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await c.query(`CREATE DATABASE ${name}`);
  await c.end();
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** The Node flags `npm start` runs the server with (heap sizing), so the bench measures the same process. */
function startFlags(): string[] {
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  return start.split(/\s+/).filter((w) => w.startsWith('--'));
}

async function startCairn(databaseUrl: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...startFlags(), join(ROOT, 'bin', 'cairn.js'), 'serve'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, PORT: String(port), CAIRN_DATA_DIR: join(ROOT, '.cairn-bench') },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  for (let i = 0; i < 120; i++) {
    if (
      await fetch(`http://127.0.0.1:${port}/healthz`).then(
        (r) => r.ok,
        () => false,
      )
    )
      return child;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('the Cairn server did not start');
}

/** Resident memory of a process, in MiB (Linux). */
function rssMiB(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Math.round(Number(m[1]) / 1024) : Number.NaN;
}

/** Bulk-loads entries with triggers off (superuser; the search vector set as its trigger would), then rebuilds the org's recall statistics. */
async function topUp(db: pg.Client, orgId: string, turns: string[], have: number, want: number) {
  const BATCH = 20_000;
  await db.query(`SET session_replication_role = replica`);
  for (let from = have; from < want; from += BATCH) {
    const n = Math.min(BATCH, want - from);
    await db.query(
      `INSERT INTO entries (id, org_id, kind, content, content_sha256, search, scope, agent, created_at, updated_at)
       SELECT (lpad(to_hex(floor(extract(epoch FROM t) * 1000)::bigint), 12, '0') || '7' || substr(md5(random()::text), 1, 3)
               || '8' || substr(md5(random()::text), 1, 15))::uuid, -- a UUIDv7 of t, as the service makes
              $1, 'memory', c, cairn_sha256(c), cairn_entry_vector('memory', NULL, c, NULL, NULL, '{}'), 'org', 'loader', t, t
       FROM (SELECT $2::text[] AS turns) v,
            LATERAL generate_series($3::int, $3::int + $4::int - 1) AS g,
            LATERAL (SELECT turns[1 + (g % array_length(turns, 1))] || ' #' || g AS c,
                            now() - make_interval(secs => ($5::int - g)) AS t) x`,
      [orgId, turns, from, n, want],
    );
  }
  await db.query('SELECT cairn_rebuild_recall_index($1)', [orgId]);
  await db.query('VACUUM ANALYZE'); // as autovacuum would after a load: visibility map for index-only scans
}

interface Paired {
  size: number;
  floor: Stat;
  recall: Stat;
}

async function benchCairn(
  turns: string[],
  questions: string[],
): Promise<{ stats: Stat[]; paired: Paired[]; rss: number }> {
  const url = await freshDatabase('cairn_bench');
  const store = await openStore({ databaseUrl: url, poolSize: 1 });
  const { org, key } = await adminActions(store, 'bench').createOrg('bench');
  await store.close();
  const port = 18000 + Math.floor(Math.random() * 1000);
  const child = await startCairn(url, port);
  const db = new pg.Client({ connectionString: url });
  await db.connect();
  const stats: Stat[] = [];
  const paired: Paired[] = [];
  let rss = rssMiB(child.pid as number);
  const sampler = setInterval(() => {
    rss = Math.max(rss, rssMiB(child.pid as number));
  }, 200);
  const mcp = `http://127.0.0.1:${port}/mcp`;
  const headers = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': '2025-06-18',
    'x-svc-key': key.secret,
    'x-svc-agent': 'bench',
  };
  /** One JSON-RPC request over HTTP, as a client sends it; true when it succeeded. */
  const rpc = async (method: string, params: Record<string, unknown> = {}) => {
    const res = await fetch(mcp, {
      method: 'POST',
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    });
    const body = (await res.json()) as { result?: { isError?: boolean } };
    return res.ok && body.result !== undefined && !body.result.isError;
  };
  const tool = (name: string, a: Record<string, unknown>) => rpc('tools/call', { name, arguments: a });
  let have = 0;
  let serial = 0;
  try {
    for (const size of SIZES) {
      process.stderr.write(`cairn: loading ${size} entries…\n`);
      await topUp(db, org.id, turns, have, size);
      have = size;
      // steady state: a served org's working set is in memory; warm it before measuring
      await measure('warm-up', size, 4, (i) => tool('recall', { query: questions[(i * 7) % questions.length] }));
      for (const c of CONCURRENCY) {
        stats.push(await measure('floor', size, c, () => rpc('tools/list')));
        stats.push(await measure('recall', size, c, (i) => tool('recall', { query: questions[i % questions.length] })));
        stats.push(
          await measure('remember', size, c, () =>
            tool('remember', { content: `bench fact ${serial++} ${Date.now()}` }),
          ),
        );
        process.stderr.write(`cairn: size ${size} c=${c} done (rss ${rss} MiB)\n`);
      }
      const [floor, recall] = await measureTogether(size, 1, [
        { op: 'floor', once: () => rpc('tools/list') },
        { op: 'recall', once: (i) => tool('recall', { query: questions[i % questions.length] }) },
      ]);
      paired.push({ size, floor: floor as Stat, recall: recall as Stat });
    }
  } finally {
    clearInterval(sampler);
    child.kill('SIGTERM');
    await db.end();
  }
  return { stats, paired, rss };
}

// ---------------------------------------------------------------- reference: server-memory over stdio

async function benchReference(turns: string[], questions: string[]): Promise<Stat[]> {
  const stats: Stat[] = [];
  const file = join(ROOT, '.cairn-bench', 'server-memory.jsonl');
  mkdirSync(join(ROOT, '.cairn-bench'), { recursive: true });
  writeFileSync(file, '');
  const client = new Client({ name: 'bench', version: '1' });
  const bin = join(ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
  await client.connect(
    new StdioClientTransport({ command: process.execPath, args: [bin], env: { MEMORY_FILE_PATH: file } }),
  );
  const call = async (name: string, a: Record<string, unknown>) =>
    !(await client.callTool({ name, arguments: a })).isError;
  let have = 0;
  let serial = 0;
  try {
    for (const size of REF_SIZES) {
      process.stderr.write(`server-memory: loading ${size} entities…\n`);
      for (let from = have; from < size; from += 1000) {
        const entities = Array.from({ length: Math.min(1000, size - from) }, (_, j) => ({
          name: `turn-${from + j}`,
          entityType: 'memory',
          observations: [`${turns[(from + j) % turns.length]} #${from + j}`],
        }));
        await call('create_entities', { entities });
      }
      have = size;
      for (const c of CONCURRENCY.filter((x) => x <= 16)) {
        stats.push(
          await measure('recall', size, c, (i) => call('search_nodes', { query: questions[i % questions.length] })),
        );
        stats.push(
          await measure('remember', size, c, () =>
            call('create_entities', {
              entities: [{ name: `fact-${serial++}`, entityType: 'memory', observations: [`bench fact ${serial}`] }],
            }),
          ),
        );
        process.stderr.write(`server-memory: size ${size} c=${c} done\n`);
      }
    }
  } finally {
    await client.close();
  }
  return stats;
}

// ---------------------------------------------------------------- report

function table(rows: (Stat & { server: string })[]): string {
  const head =
    '| server | op | entries | concurrency | req/s | p50 ms | p95 ms | p99 ms | errors |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- |';
  return [
    head,
    ...rows.map(
      (s) =>
        `| ${s.server} | ${s.op} | ${s.size} | ${s.concurrency} | ${s.rps} | ${s.p50} | ${s.p95} | ${s.p99} | ${s.errors} |`,
    ),
  ].join('\n');
}

async function main() {
  const { turns, questions } = locomo();
  const cairn = await benchCairn(turns, questions);
  const reference = REF_SIZES.length && REF_SIZES[0] ? await benchReference(turns, questions) : [];
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model ?? 'cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  const command = `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim();
  const result = {
    date,
    machine,
    command,
    seconds: SECONDS,
    cairn: cairn.stats,
    cairn_recall_vs_floor: cairn.paired,
    cairn_max_rss_mib: cairn.rss,
    reference,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `${date}.json`), `${JSON.stringify(result, null, 2)}\n`);

  const rows = [
    ...cairn.stats.map((s) => ({ ...s, server: 'cairn' })),
    ...reference.map((s) => ({ ...s, server: 'server-memory' })),
  ];
  const md = [
    `Run ${date} on ${machine}; ${SECONDS} s per cell; command \`${command}\`; raw figures in \`bench/results/${date}.json\`.`,
    `Cairn server peak RSS under this load: ${cairn.rss} MiB.`,
    '',
    table(rows),
    '',
    `Recall against the floor, measured together (c = 1, the two requests alternating for ${SECONDS} s, so that both see the same machine state):`,
    '',
    '| entries | floor p50 ms | recall p50 ms | recall / floor | floor p95 ms | recall p95 ms |',
    '| --- | --- | --- | --- | --- | --- |',
    ...cairn.paired.map(
      (p) =>
        `| ${p.size} | ${p.floor.p50} | ${p.recall.p50} | ${(p.recall.p50 / p.floor.p50).toFixed(2)} | ${p.floor.p95} | ${p.recall.p95} |`,
    ),
  ].join('\n');
  console.log(md);
  writeBenchmarkSection('bench', 'Service (npm run bench)', md);
}

await main();
