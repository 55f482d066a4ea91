/**
 * `npm run bench:cpu`: the server's CPU per call of every tool, the way to see a change to the
 * request path (docs/design.md, "CPU per call"): one warm server process (`cairn serve` with
 * `--workers 1`, its Node flags as `npm start` sets them) on a copy of the Postgres 1k database of
 * `npm run bench` (loaded by it when missing), each tool alone at concurrency 1 for --seconds,
 * --rounds times in turn, beside the floor measured before and after each round. Figures: the
 * median over the rounds of the server's CPU (its process, from /proc) per call, and that over
 * the floor's of the same round. Writes bench/results/cpu-<date>.json and the 'cpu' section of
 * BENCHMARKS.md (--no-md: not). The full benchmark (`npm run bench`) measures the same at every
 * size and concurrency, with the worker processes `cairn serve` runs by default.
 *
 *   --seconds 4   per tool per round, after a second of warm-up
 *   --rounds 3
 *   --jit-warmup 20   seconds of reads (every read tool in turn) before measuring
 *   --only recall,space.agents   tools (or tool.variant) to measure
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { allOps, rpcClient } from './bench/calls';
import { readCorpus } from './bench/corpus';
import { ADMIN_URL, prepare, ROOT, RUN_DB } from './bench/databases';
import { loop } from './bench/measure';
import { type Running, startCairn, startFloor, treeCpuMs } from './bench/procs';
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
const log = (line: string) => process.stderr.write(`${line}\n`);

/** Server CPU (ms) per call of `call` at concurrency 1 over SECONDS, after a second of warm-up. */
async function perCall(target: Running, call: (i: number) => Promise<unknown>): Promise<number> {
  await loop(1, 1, call);
  const cpu0 = treeCpuMs(target.pid);
  const run = await loop(1, SECONDS, call);
  if (run.errors) throw new Error(`${run.errors} calls failed: ${run.firstError}`);
  return (treeCpuMs(target.pid) - cpu0) / run.latencies.length;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

async function main() {
  process.env.CAIRN_WORKERS = '1';
  const corpus = readCorpus(ROOT);
  const prepared = await prepare('postgres', 1000, { reload: false, upgrade: false, lanes: 2, corpus, log });
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
    const floorCall = () => rpcClient(`${floor.url}/mcp`, 'none')('tools/call', { name: 'floor' });
    const reads = ops.filter((op) => op.name === 'recall' || op.name.startsWith('space.'));
    await loop(1, JIT_WARMUP, (i) => (reads[i % reads.length] as (typeof reads)[number]).call(i));
    await loop(1, JIT_WARMUP / 4, floorCall);
    const wanted = ops.filter(
      (op) => !ONLY.length || ONLY.includes(op.name) || ONLY.includes(op.name.split('.')[0] as string),
    );
    const figures = new Map<string, { server: number[]; floor: number[] }>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const op of wanted) {
        await op.prepare?.(Math.ceil(SECONDS * 2000));
        const before = await perCall(floor, floorCall);
        const ms = await perCall(server, op.call);
        const after = await perCall(floor, floorCall);
        const f = figures.get(op.name) ?? { server: [], floor: [] };
        f.server.push(ms);
        f.floor.push((before + after) / 2);
        figures.set(op.name, f);
        log(`round ${round + 1} ${op.name}: ${r3(ms)} ms/call, floor ${r3((before + after) / 2)}`);
      }
    }
    const rows = [...figures].map(([op, f]) => {
      const ratios = f.server.map((s, i) => s / (f.floor[i] as number));
      return { op, serverMs: r3(median(f.server)), floorMs: r3(median(f.floor)), ratio: r3(median(ratios)) };
    });
    const date = new Date().toISOString().slice(0, 10);
    const file = `cpu-${date}.json`;
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    writeFileSync(join(ROOT, 'bench', 'results', file), `${JSON.stringify({ date, argv, rows }, null, 2)}\n`);
    const md = [
      `Run ${date} on ${cpus().length} cores, Node ${process.versions.node}; command \`npm run bench:cpu${argv.length ? ` -- ${argv.join(' ')}` : ''}\`: one warm server process on the Postgres 1k database, each tool alone at c = 1, ${ROUNDS} rounds of ${SECONDS} s (medians); raw figures in \`bench/results/${file}\`.`,
      '',
      '| tool | server CPU ms/call | floor ms/call | × floor |',
      '| --- | --- | --- | --- |',
      ...rows.map((r) => `| ${r.op} | ${r.serverMs} | ${r.floorMs} | ${r.ratio}× |`),
    ].join('\n');
    console.log(md);
    if (!argv.includes('--no-md'))
      writeBenchmarkSection('cpu', 'CPU per call, one warm process (npm run bench:cpu)', md);
  } finally {
    await server.stop();
    await floor.stop();
    const c = new pg.Client({ connectionString: ADMIN_URL });
    await c.connect();
    await c.query(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
    await c.end();
  }
}

await main();
