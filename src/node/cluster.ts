/**
 * The primary process of `cairn serve` with several workers (node:cluster). It forks the workers,
 * which share the listening port (on Linux the primary accepts each connection and hands it to
 * the workers in turn), says once when they all listen, and replaces a worker that dies: after a
 * pause that doubles while replacements keep dying young, so a worker that cannot start (the
 * database is down) is not restarted in a tight loop. SIGTERM or SIGINT is passed to every worker
 * as SIGTERM (each stops gracefully, src/node/serve.ts); the primary exits when all have, 0 when each
 * stopped cleanly. A second signal, or workers still running after STOP_DEADLINE_MS, kills them.
 */
import cluster, { type Worker } from 'node:cluster';

/** The first replacement's pause; it doubles for each worker in a row that dies young. */
const FIRST_DELAY_MS = 500;
const MAX_DELAY_MS = 30_000;
/** A worker that lived this long had started: the next replacement waits FIRST_DELAY_MS again. */
const STABLE_MS = 10_000;
const STOP_DEADLINE_MS = 30_000;

export interface PrimaryOptions {
  workers: number;
  /** Variables the workers get on top of the primary's environment. */
  env: Record<string, string>;
  /** Called once, when as many workers as asked for listen: the port they share. */
  onListening(port: number): void;
  log?: (message: string) => void;
}

/** Forks the workers and looks after them until a signal stops them all; then exits the process. */
export function runPrimary(o: PrimaryOptions): void {
  const log = o.log ?? ((m) => console.error(`[cairn] ${m}`));
  const startedAt = new Map<Worker, number>();
  const listening = new Set<Worker>();
  const pending = new Set<NodeJS.Timeout>();
  let announced = false;
  let youngDeaths = 0;
  let stopping = false;
  let clean = true;

  const fork = () => startedAt.set(cluster.fork(o.env), Date.now());
  const signalAll = (signal: NodeJS.Signals) => {
    for (const w of startedAt.keys()) w.process.kill(signal);
  };

  cluster.on('listening', (w, address) => {
    listening.add(w);
    if (!announced && listening.size === o.workers) {
      announced = true;
      o.onListening(address.port);
    }
  });

  cluster.on('exit', (w, code, signal) => {
    const lived = Date.now() - (startedAt.get(w) ?? 0);
    startedAt.delete(w);
    listening.delete(w);
    if (stopping) {
      if (code !== 0) {
        clean = false;
        log(`worker ${w.process.pid} stopped uncleanly (${signal ?? `code ${code}`})`);
      }
      if (startedAt.size === 0) process.exit(clean ? 0 : 1);
      return;
    }
    youngDeaths = lived < STABLE_MS ? youngDeaths + 1 : 0;
    const delay = Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.max(0, youngDeaths - 1));
    log(`worker ${w.process.pid} exited (${signal ?? `code ${code}`}); a new one starts in ${delay} ms`);
    const timer = setTimeout(() => {
      pending.delete(timer);
      fork();
    }, delay);
    pending.add(timer);
  });

  const stop = () => {
    if (stopping) {
      log('second signal: killing the workers');
      signalAll('SIGKILL');
      process.exit(1);
    }
    stopping = true;
    for (const timer of pending) clearTimeout(timer);
    if (startedAt.size === 0) process.exit(0);
    signalAll('SIGTERM');
    setTimeout(() => {
      log(`workers still running after ${STOP_DEADLINE_MS / 1000} s; killing them`);
      signalAll('SIGKILL');
      process.exit(1);
    }, STOP_DEADLINE_MS);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  for (let i = 0; i < o.workers; i++) fork();
}
