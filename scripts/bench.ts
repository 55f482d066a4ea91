/**
 * `npm run bench`: every tool (plan create and update, each space view) through MCP over HTTP, on
 * the Postgres server and on the embedded database, at each size and concurrency, beside the
 * floor (a bare node:http server running one query through the same driver), with the CPU the
 * server process and its Postgres backends spend per call; then the writes per second one org
 * sustains and the time they wait on its row locks (ledger head, statistics, usage). Writes
 * bench/results/bench-<date>.json and the 'bench' section of BENCHMARKS.md. How each part works:
 * scripts/bench/*.ts. CAIRN_BENCH_PG_URL: the Postgres server's admin URL (default
 * postgres://postgres@127.0.0.1:5432/postgres); CAIRN_BENCH_REVISION: what to call the revision
 * measured (default: the checkout's commit).
 *
 *   --db postgres,embedded          databases
 *   --sizes 1000,100000,1000000     entries in the org (Postgres)
 *   --embedded-sizes 1000,100000    entries in the org (embedded; default: --sizes up to 100k)
 *   --concurrency 1,16              closed-loop clients per cell
 *   --seconds 5                     per cell, after --warmup 1 s at the same concurrency
 *   --jit-warmup 20                 seconds of reads (every read tool in turn, c=1) at each server's start
 *   --only recall,space,plan        tools (or tool.variant) to measure; the floor always
 *   --org-writes 16,64              concurrencies of the one-org write test ('' to skip); --org-seconds 10
 *   --reload                        load the size's template again even if its manifest matches
 *   --upgrade                       migrate a template of an earlier schema in place (as a release
 *                                   upgrades an installed database) instead of loading it again
 *   --lanes 2                       writers side by side while loading a template
 *   --wait-tests 180                most seconds to wait before a cell while tests (vitest) run
 *   --no-md                         do not write BENCHMARKS.md
 *   --load-only                     load the templates that do not match, measure nothing
 *   --render bench/results/bench-<date>.json   write the section from a run's figures, measure nothing
 */
import { execSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { allOps, type RunState, rpcClient } from './bench/calls';
import { readCorpus } from './bench/corpus';
import { type Db, dropRunDb, ensureTemplate, prepare, ROOT, RUN_DB } from './bench/databases';
import { type Cell, type CellOptions, loop, runCell } from './bench/measure';
import { type OrgWrites, orgWrites } from './bench/org-writes';
import { startCairn, startFloor } from './bench/procs';
import { benchMarkdown, type RunInfo } from './bench/summary';
import { writeBenchmarkSection } from './benchmarks-md';

const argv = process.argv.slice(2);
const args = Object.fromEntries(
  argv.flatMap((a, i, all) =>
    a.startsWith('--') ? [[a.slice(2), all[i + 1]?.startsWith('--') ? '' : (all[i + 1] ?? '')]] : [],
  ),
);
const list = (s: string | undefined, d: string) =>
  (s ?? d)
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const nums = (s: string | undefined, d: string) => list(s, d).map(Number);
const DBS = list(args.db, 'postgres,embedded') as Db[];
const SIZES = nums(args.sizes, '1000,100000,1000000');
const EMBEDDED_SIZES = nums(args['embedded-sizes'], SIZES.filter((s) => s <= 100_000).join(','));
const CONCURRENCY = nums(args.concurrency, '1,16');
const SECONDS = Number(args.seconds || 5);
const WARMUP = Number(args.warmup ?? 1);
const JIT_WARMUP = Number(args['jit-warmup'] ?? 20);
const ONLY = list(args.only, '');
const ORG_C = nums(args['org-writes'] ?? '16,64', '');
const ORG_SECONDS = Number(args['org-seconds'] || 10);
const LANES = Number(args.lanes || 2);
const WAIT_TESTS = Number(args['wait-tests'] ?? 180);

const log = (line: string) => process.stderr.write(`${line}\n`);
const wanted = (name: string) =>
  ONLY.length === 0 || ONLY.includes(name) || ONLY.includes(name.split('.')[0] as string);

/** The revision measured: CAIRN_BENCH_REVISION, else the checkout's commit (and whether the service's sources differ from it). */
function revision(): string {
  if (process.env.CAIRN_BENCH_REVISION) return process.env.CAIRN_BENCH_REVISION;
  try {
    const sh = (c: string) =>
      execSync(c, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim();
    const dirty = sh('git status --porcelain -- src sql drizzle bin package.json') !== '';
    return `${sh('git rev-parse --short HEAD')}${dirty ? ' with uncommitted changes to the service' : ''}`;
  } catch {
    return 'unknown';
  }
}

async function entriesNow(url: string, secret: string): Promise<number> {
  const r = await rpcClient(url, secret)('tools/call', {
    name: 'space',
    arguments: { view: 'overview', scope: 'org' },
  });
  return Object.values(r.counts as Record<string, number>).reduce((a, b) => a + b, 0);
}

async function benchOne(db: Db, size: number, corpus: ReturnType<typeof readCorpus>, runTag: string) {
  const prepared = await prepare(db, size, {
    reload: 'reload' in args,
    upgrade: 'upgrade' in args,
    lanes: LANES,
    corpus,
    log,
  });
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const floor = await startFloor(prepared, port);
  const server = await startCairn(prepared, port + 1);
  const t0 = performance.now();
  await server.settled();
  log(`${db} ${size}: the server's first upkeep took ${((performance.now() - t0) / 1000).toFixed(1)} s from start`);
  const cells: Cell[] = [];
  const org: OrgWrites[] = [];
  const o: CellOptions = {
    db,
    size,
    datname: db === 'postgres' ? RUN_DB : undefined,
    seconds: SECONDS,
    warmup: WARMUP,
    waitTests: WAIT_TESTS,
    log,
  };
  const add = (cell: Cell) => {
    cells.push(cell);
    const cpu = `server ${cell.serverCpu} ms${cell.dbCpu === null ? '' : ` + db ${cell.dbCpu} ms`}/call`;
    log(
      `${db} ${size} ${cell.op} c=${cell.c}: ${cell.rps} req/s, p50 ${cell.p50} p95 ${cell.p95} ms, ${cpu}${cell.errors ? `, ${cell.errors} errors (${cell.firstError})` : ''}`,
    );
  };
  const mcp = `${server.url}/mcp`;
  const floorRpc = rpcClient(`${floor.url}/mcp`, 'none');
  try {
    const state: RunState = { written: [], plans: [], artifacts: [], historyIds: prepared.manifest.historyIds };
    const all = allOps(rpcClient(mcp, prepared.manifest.secret), corpus, state, runTag);
    // A server in steady state: V8 optimises a function after many calls, and Cairn's code paths
    // are many (a cell's second of warm-up is not enough: space agents cost 0.63 ms of CPU a call
    // over the first 1,000 calls, 0.34 ms over the next 15,000). The reads run in turn, writing
    // nothing, so each size is measured as loaded; the floor (far less code) a quarter as long.
    const reads = all.filter((op) => op.name === 'recall' || op.name.startsWith('space.'));
    await loop(1, JIT_WARMUP, (i) => (reads[i % reads.length] as (typeof reads)[number]).call(i));
    await loop(1, JIT_WARMUP / 4, () => floorRpc('tools/call', { name: 'floor' }));
    for (const c of CONCURRENCY) {
      add(await runCell(floor, { name: 'floor', call: () => floorRpc('tools/call', { name: 'floor' }) }, c, o, 0));
    }
    const ops = all.filter((op) => wanted(op.name));
    for (const op of ops) {
      for (const c of CONCURRENCY) {
        const fastest = Math.max(100, ...cells.filter((x) => x.op !== 'floor' && x.c === c).map((x) => x.rps));
        add(await runCell(server, op, c, o, Math.ceil(fastest * (SECONDS + WARMUP) * 1.3)));
      }
    }
    for (const c of ORG_C) {
      const w = await orgWrites(server, rpcClient(mcp, prepared.manifest.secret), corpus, runTag, c, {
        ...o,
        seconds: ORG_SECONDS,
      });
      org.push(w);
      log(`${db} ${size} one org c=${c}: ${w.cell.rps} writes/s; waits ${JSON.stringify(w.waits)}`);
    }
    const entries = await entriesNow(mcp, prepared.manifest.secret);
    const { secret: _, ...manifest } = prepared.manifest;
    return { cells, org, run: { db, size, reused: prepared.reused, entriesAtEnd: entries, manifest } };
  } finally {
    await server.stop();
    await floor.stop();
    if (db === 'postgres') await dropRunDb();
  }
}

/** The section of BENCHMARKS.md from a results file (after a change to how it is written). */
function render(file: string) {
  const r = JSON.parse(readFileSync(file, 'utf8'));
  const md = benchMarkdown(r, r.runs, r.cells, r.orgWrites);
  console.log(md);
  if (!('no-md' in args)) writeBenchmarkSection('bench', 'Service (npm run bench)', md);
}

async function main() {
  if (args.render) return render(args.render);
  const corpus = readCorpus(ROOT);
  const runTag = Date.now().toString(36);
  const cells: Cell[] = [];
  const org: OrgWrites[] = [];
  const runs: RunInfo[] = [];
  for (const db of DBS) {
    for (const size of db === 'postgres' ? SIZES : EMBEDDED_SIZES) {
      if ('load-only' in args) {
        await ensureTemplate(db, size, {
          reload: 'reload' in args,
          upgrade: 'upgrade' in args,
          lanes: LANES,
          corpus,
          log,
        });
        continue;
      }
      const r = await benchOne(db, size, corpus, runTag);
      cells.push(...r.cells);
      org.push(...r.org);
      runs.push(r.run);
    }
  }
  if ('load-only' in args) return;
  const date = new Date().toISOString().slice(0, 10);
  const machine = `${cpus().length} cores (${cpus()[0]?.model.trim() ?? 'cpu'}), ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.versions.node}`;
  const command = `npm run bench${argv.length ? ` -- ${argv.join(' ')}` : ''}`;
  const file = `bench-${date}.json`;
  const info = {
    date,
    machine,
    command,
    revision: revision(),
    seconds: SECONDS,
    warmup: WARMUP,
    jitWarmup: JIT_WARMUP,
    file,
  };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(
    join(ROOT, 'bench', 'results', file),
    `${JSON.stringify({ ...info, concurrency: CONCURRENCY, runs, cells, orgWrites: org }, null, 2)}\n`,
  );
  const md = benchMarkdown(info, runs, cells, org);
  console.log(md);
  if (!('no-md' in args)) writeBenchmarkSection('bench', 'Service (npm run bench)', md);
}

await main();
