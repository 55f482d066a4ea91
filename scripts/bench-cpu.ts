/**
 * `npm run bench:cpu`: the server's CPU per call of every tool, the way to see a change to the
 * request path (docs/design.md, "CPU per call"): one warm server process (`cairn serve` with
 * `--workers 1`, its Node flags as `npm start` sets them) on a copy of the Postgres 1k database of
 * `npm run bench` (loaded by it when missing), each tool alone at concurrency 1 for --seconds,
 * --rounds times in turn, beside two floors (scripts/bench/floor.ts): the bare one (`SELECT 1`),
 * and the same server running one query that keeps the database busy as long as the tool's call
 * takes (its `wait_us` found by probing until the floor's median latency is the tool's), so that
 * both wait on the database alike. Figures: medians over the rounds of the server's CPU (its
 * process, from /proc) per call, of its ratio to each floor in the same round, and of the CPU of
 * its Postgres backends per call (what the call costs the database, as `npm run bench` counts
 * it); then the service's own code per call, replayed in this process without sockets or database
 * (scripts/bench/replay.ts), and what a call would cost if that code were all it added to the bare
 * floor: (floor + own code) over the floor. Writes
 * bench/results/cpu-<date>.json and the 'cpu' section of BENCHMARKS.md (--no-md: not). The full
 * benchmark (`npm run bench`) measures every size and concurrency against the bare floor, with
 * the worker processes `cairn serve` runs by default.
 *
 *   --seconds 4   per tool per round, after a second of warm-up
 *   --rounds 3
 *   --jit-warmup 20   seconds of reads (every read tool in turn) before measuring
 *   --only recall,space.agents   tools (or tool.variant) to measure
 *   --own-calls 100 --own-rounds 10   the replay of the service's own code (scripts/bench/replay.ts)
 *   --evict-mb 0   megabytes of memory the replay reads before each call (cold caches)
 *   --idle-ms 0   milliseconds the replay sits idle before each call, as a live call waits on its statement
 *   --own-only   the replay alone (no servers, nothing written): a quick look at a code change
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { allOps, rpcClient } from './bench/calls';
import { readCorpus } from './bench/corpus';
import { dropRunDb, prepare, ROOT, RUN_DB } from './bench/databases';
import { loop, percentile } from './bench/measure';
import { BackendCpu, type Running, startCairn, startFloor, treeCpuMs } from './bench/procs';
import { ownCodeCpu } from './bench/replay';
import { writeBenchmarkSection } from './benchmarks-md';

const argv = process.argv.slice(2);
const arg = (name: string, d: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] && !argv[i + 1]?.startsWith('--') ? (argv[i + 1] as string) : d;
};
const SECONDS = Number(arg('seconds', '4'));
const ROUNDS = Number(arg('rounds', '3'));
const JIT_WARMUP = Number(arg('jit-warmup', '20'));
const ONLY = arg('only', '').split(',').filter(Boolean);
const OWN_CALLS = Number(arg('own-calls', '100'));
const OWN_ROUNDS = Number(arg('own-rounds', '10'));
const EVICT_MB = Number(arg('evict-mb', '0'));
const IDLE_MS = Number(arg('idle-ms', '0'));
const log = (line: string) => process.stderr.write(`${line}\n`);

/**
 * Server CPU (ms) per call of `call` at concurrency 1 over `seconds`, after a second of warm-up;
 * the median latency; the CPU of the target's Postgres backends per call.
 */
async function perCall(target: Running, call: (i: number) => Promise<unknown>, seconds = SECONDS) {
  await loop(1, 1, call);
  const backends = await BackendCpu.open(RUN_DB, target.app);
  await backends.start();
  const cpu0 = treeCpuMs(target.pid);
  const run = await loop(1, seconds, call);
  const cpu = treeCpuMs(target.pid) - cpu0;
  const db = await backends.stop();
  await backends.close();
  if (run.errors) throw new Error(`${run.errors} calls failed: ${run.firstError}`);
  const n = run.latencies.length;
  return { ms: cpu / n, p50: median(run.latencies), dbMs: db.ms / n };
}

interface Figure {
  server: number;
  p50: number;
  db: number;
  bare: number;
  matched: number;
  waitUs: number;
}

const median = (xs: number[]) =>
  percentile(
    [...xs].sort((a, b) => a - b),
    50,
  );
const r3 = (x: number) => Math.round(x * 1000) / 1000;

const wanted = (name: string) => !ONLY.length || ONLY.includes(name) || ONLY.includes(name.split('.')[0] as string);

async function main() {
  process.env.CAIRN_WORKERS = '1';
  const corpus = readCorpus(ROOT);
  const prepared = await prepare('postgres', 1000, { reload: false, upgrade: false, lanes: 2, corpus, log });
  const ownOf = (which: (name: string) => boolean) =>
    ownCodeCpu(prepared, corpus, which, {
      calls: OWN_CALLS,
      rounds: OWN_ROUNDS,
      evictMb: EVICT_MB,
      idleMs: IDLE_MS,
      log,
    });
  if (argv.includes('--own-only')) {
    try {
      const own = await ownOf(wanted);
      console.log([...own].map(([op, us]) => `${op}\t${us} µs/call`).join('\n'));
    } finally {
      await dropRunDb();
    }
    return;
  }
  const port = 18_000 + Math.floor(Math.random() * 1000);
  const floor = await startFloor(prepared, port);
  const server = await startCairn(prepared, port + 1);
  try {
    await server.settled();
    const state = { written: [], plans: [], artifacts: [], historyIds: prepared.manifest.historyIds };
    const ops = allOps(
      rpcClient(`${server.url}/mcp`, prepared.manifest.secret),
      corpus,
      state,
      Date.now().toString(36),
    );
    const floorRpc = rpcClient(`${floor.url}/mcp`, 'none');
    const floorCall = (waitUs: number) => () =>
      floorRpc('tools/call', { name: 'floor', arguments: { wait_us: waitUs } });
    /** The floor whose median latency is `p50` (ms): its query's wait, probed a few times. */
    const matchedFloor = async (p50: number, bare: number) => {
      let wait = Math.max(0, Math.round((p50 - bare) * 1000));
      for (let probe = 0; probe < 4; probe++) {
        const run = await loop(1, 1, floorCall(wait));
        const off = p50 - median(run.latencies);
        if (Math.abs(off) <= 0.03 * p50) break;
        wait = Math.max(0, Math.round(wait + off * 1000));
      }
      return { wait, ...(await perCall(floor, floorCall(wait))) };
    };
    const reads = ops.filter((op) => op.name === 'recall' || op.name.startsWith('space.'));
    await loop(1, JIT_WARMUP, (i) => (reads[i % reads.length] as (typeof reads)[number]).call(i));
    await loop(1, JIT_WARMUP / 4, floorCall(0));
    const measured = ops.filter((op) => wanted(op.name));
    const figures = new Map<string, Figure[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const op of measured) {
        await op.prepare?.(Math.ceil(SECONDS * 2000));
        const bare = await perCall(floor, floorCall(0), Math.min(SECONDS, 2));
        const tool = await perCall(server, op.call);
        const matched = await matchedFloor(tool.p50, bare.p50);
        const f: Figure = {
          server: tool.ms,
          p50: tool.p50,
          db: tool.dbMs,
          bare: bare.ms,
          matched: matched.ms,
          waitUs: matched.wait,
        };
        figures.set(op.name, [...(figures.get(op.name) ?? []), f]);
        log(
          `round ${round + 1} ${op.name}: ${r3(f.server)} ms/call at p50 ${r3(f.p50)} ms (database ${r3(f.db)}); floor ${r3(f.bare)}, at the same latency ${r3(f.matched)} (wait ${f.waitUs} µs)`,
        );
      }
    }
    const own = await ownOf((name) => figures.has(name));
    const rows = [...figures].map(([op, fs]) => ({
      op,
      ownUs: own.get(op) ?? Number.NaN,
      serverMs: r3(median(fs.map((f) => f.server))),
      p50: r3(median(fs.map((f) => f.p50))),
      dbMs: r3(median(fs.map((f) => f.db))),
      bareMs: r3(median(fs.map((f) => f.bare))),
      matchedMs: r3(median(fs.map((f) => f.matched))),
      waitUs: median(fs.map((f) => f.waitUs)),
      ratioBare: r3(median(fs.map((f) => f.server / f.bare))),
      ratioMatched: r3(median(fs.map((f) => f.server / f.matched))),
    }));
    const withOwn = (r: (typeof rows)[number]) => r3(1 + r.ownUs / 1000 / r.bareMs);
    const date = new Date().toISOString().slice(0, 10);
    const file = `cpu-${date}.json`;
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', file), `${JSON.stringify({ date, argv, rows }, null, 2)}\n`);
    const md = [
      `Run ${date} on ${cpus().length} cores, Node ${process.versions.node}; command \`npm run bench:cpu${argv.length ? ` -- ${argv.join(' ')}` : ''}\`: one warm server process on the Postgres 1k database, each tool alone at c = 1, ${ROUNDS} rounds of ${SECONDS} s (medians); raw figures in \`bench/results/${file}\`.`,
      '',
      `| tool | p50 ms | database CPU ms/call | server CPU ms/call | floor (\`SELECT 1\`) ms/call | × it | floor at the tool's latency ms/call (its wait) | × it | own code µs/call (replayed${EVICT_MB ? `, ${EVICT_MB} MB evicted` : ''}${IDLE_MS ? `, ${IDLE_MS} ms idle before each` : ''}) | floor + own code × floor |`,
      '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
      ...rows.map(
        (r) =>
          `| ${r.op} | ${r.p50} | ${r.dbMs} | ${r.serverMs} | ${r.bareMs} | ${r.ratioBare}× | ${r.matchedMs} (${r.waitUs} µs) | ${r.ratioMatched}× | ${r.ownUs} | ${withOwn(r)}× |`,
      ),
    ].join('\n');
    console.log(md);
    if (!argv.includes('--no-md'))
      writeBenchmarkSection('cpu', 'CPU per call, one warm process (npm run bench:cpu)', md);
  } finally {
    await server.stop();
    await floor.stop();
    await dropRunDb();
  }
}

await main();
