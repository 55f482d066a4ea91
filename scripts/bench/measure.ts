/**
 * One cell: one op at one concurrency for SECONDS, closed loop, after a warm-up at the same
 * concurrency; its latencies, and the CPU the server (its process tree) and its Postgres backends
 * spent over the cell, per call. Before each cell it waits, within a bound, while other engineers'
 * tests (vitest) run, and it records how busy the rest of the machine was during the cell.
 */
import type { Op } from './calls';
import type { Db } from './databases';
import { BackendCpu, machineBusyMs, type Running, testsRunning, treeCpuMs } from './procs';

export interface Cell {
  db: Db;
  size: number;
  op: string;
  c: number;
  requests: number;
  errors: number;
  firstError?: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  /** CPU ms per call of the server process (and any children). */
  serverCpu: number;
  /** CPU ms per call of its Postgres backends; null on the embedded database (inside the server process). */
  dbCpu: number | null;
  backends: number | null;
  /** Cores busy with other work (not the server, its backends or this client) during the cell. */
  otherCores: number;
  /** Seconds waited for tests to finish before the cell; whether they still ran when it started. */
  waited: number;
  testsRunning: boolean;
}

export interface CellOptions {
  db: Db;
  size: number;
  /** The Postgres database the target serves (its backends are counted), if any. */
  datname: string | undefined;
  seconds: number;
  warmup: number;
  waitTests: number;
  log: (line: string) => void;
}

const r2 = (x: number) => Math.round(x * 100) / 100;

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number;
}

/** Closed-loop workers for `seconds`; latencies of the calls that started in that time. */
export async function loop(
  c: number,
  seconds: number,
  call: (i: number) => Promise<unknown>,
): Promise<{ latencies: number[]; errors: number; firstError?: string }> {
  const latencies: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let counter = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: c }, async () => {
      while (performance.now() < end) {
        const t0 = performance.now();
        try {
          await call(counter++);
        } catch (err) {
          errors++;
          firstError ??= err instanceof Error ? err.message : String(err);
        }
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies: latencies.sort((a, b) => a - b), errors, ...(firstError ? { firstError } : {}) };
}

/** Waits while tests run, at most `limit` seconds; the seconds waited. */
export async function waitForQuiet(limit: number, log: (line: string) => void): Promise<number> {
  const t0 = performance.now();
  let said = false;
  while (testsRunning() && performance.now() - t0 < limit * 1000) {
    if (!said) log(`  (tests are running; waiting up to ${limit} s)`);
    said = true;
    await new Promise((r) => setTimeout(r, 2000));
  }
  return Math.round((performance.now() - t0) / 1000);
}

/** Started after the warm-up, right before the measured loop, and stopped right after it. */
export interface During {
  start(): Promise<void>;
  stop(): Promise<void>;
}

export async function runCell(
  target: Running,
  op: Op,
  c: number,
  o: CellOptions,
  calls: number,
  during?: During,
): Promise<Cell> {
  const waited = await waitForQuiet(o.waitTests, o.log);
  const busy = testsRunning();
  await op.prepare?.(calls);
  if (o.warmup > 0) await loop(c, o.warmup, op.call);
  const backends = o.datname ? await BackendCpu.open(o.datname, target.app) : undefined;
  await backends?.start();
  await during?.start();
  const server0 = treeCpuMs(target.pid);
  const machine0 = machineBusyMs();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  const run = await loop(c, o.seconds, op.call);
  const wall = performance.now() - t0;
  await during?.stop();
  const self = process.cpuUsage(self0);
  const machine = machineBusyMs() - machine0;
  const server = treeCpuMs(target.pid) - server0;
  const db = await backends?.stop();
  await backends?.close();
  const n = run.latencies.length;
  const ours = server + (db?.ms ?? 0) + (self.user + self.system) / 1000;
  return {
    db: o.db,
    size: o.size,
    op: op.name,
    c,
    requests: n,
    errors: run.errors,
    ...(run.firstError ? { firstError: run.firstError.slice(0, 300) } : {}),
    rps: r2(n / (wall / 1000)),
    p50: r2(percentile(run.latencies, 50)),
    p95: r2(percentile(run.latencies, 95)),
    p99: r2(percentile(run.latencies, 99)),
    serverCpu: r2(server / n),
    dbCpu: db ? r2(db.ms / n) : null,
    backends: db ? db.backends : null,
    otherCores: r2(Math.max(0, machine - ours) / wall),
    waited,
    testsRunning: busy,
  };
}
