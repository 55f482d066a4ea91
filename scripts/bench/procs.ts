/**
 * The processes under test and the operating system's accounting of their CPU time: the Cairn
 * server started as `npm start` starts it, the floor, and (on Postgres) the backends serving
 * each, told apart by application_name (node-postgres takes it from PGAPPNAME).
 */
import { type ChildProcess, execFileSync, execSync, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL, type Prepared, ROOT } from './databases';

const TICK_MS = 1000 / (Number(execSync('getconf CLK_TCK').toString().trim()) || 100);

/** utime + stime + cutime + cstime of a process (ms); cutime/cstime hold its reaped children's. */
function ownCpuMs(pid: number): { ppid: number; ms: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces; the fields after it are plain numbers
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = [11, 12, 13, 14].reduce((s, i) => s + Number(f[i]), 0);
    return { ppid: Number(f[1]), ms: ticks * TICK_MS };
  } catch {
    return undefined; // exited
  }
}

/** CPU of a process and its live descendants (ms), e.g. a server with cluster workers. */
export function treeCpuMs(root: number): number {
  const procs = new Map<number, { ppid: number; ms: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const p = ownCpuMs(Number(name));
    if (p) procs.set(Number(name), p);
  }
  let total = 0;
  const todo = [root];
  for (let pid = todo.pop(); pid !== undefined; pid = todo.pop()) {
    total += procs.get(pid)?.ms ?? 0;
    for (const [child, p] of procs) if (p.ppid === pid) todo.push(child);
  }
  return total;
}

/** The machine's busy CPU time over all cores (ms), from /proc/stat. */
export function machineBusyMs(): number {
  const cpu = (readFileSync('/proc/stat', 'utf8').split('\n')[0] as string).split(/\s+/).slice(1).map(Number);
  const idle = (cpu[3] ?? 0) + (cpu[4] ?? 0); // idle + iowait
  return (cpu.reduce((a, b) => a + b, 0) - idle) * TICK_MS;
}

/**
 * CPU of the Postgres backends of one application (ms) over a cell: the pids come from
 * pg_stat_activity, their time from /proc. Sampled every 250 ms, so a backend that exits during
 * the cell (an idle pool connection closed) loses at most that much; one that starts during it
 * counts from zero.
 */
export class BackendCpu {
  private base = new Map<number, number>();
  private last = new Map<number, number>();
  private timer: NodeJS.Timeout | undefined;
  private constructor(
    private readonly db: pg.Client,
    private readonly datname: string,
    private readonly app: string,
  ) {}

  static async open(datname: string, app: string): Promise<BackendCpu> {
    const db = new pg.Client({ connectionString: ADMIN_URL, application_name: 'cairn-bench-accounting' });
    await db.connect();
    return new BackendCpu(db, datname, app);
  }

  private async sample(): Promise<Map<number, number>> {
    const { rows } = await this.db.query<{ pid: number }>(
      'SELECT pid FROM pg_stat_activity WHERE datname = $1 AND application_name = $2',
      [this.datname, this.app],
    );
    const out = new Map<number, number>();
    for (const { pid } of rows) {
      const p = ownCpuMs(pid);
      if (p) out.set(pid, p.ms);
    }
    return out;
  }

  async start(): Promise<void> {
    this.base = await this.sample();
    this.last = new Map(this.base);
    const tick = async () => {
      for (const [pid, ms] of await this.sample()) {
        if (!this.base.has(pid)) this.base.set(pid, 0);
        this.last.set(pid, ms);
      }
      this.timer = setTimeout(() => void tick().catch(() => {}), 250);
    };
    this.timer = setTimeout(() => void tick().catch(() => {}), 250);
  }

  /** Stops sampling; the backends' CPU since start (ms) and how many there were. */
  async stop(): Promise<{ ms: number; backends: number }> {
    clearTimeout(this.timer);
    for (const [pid, ms] of await this.sample()) {
      if (!this.base.has(pid)) this.base.set(pid, 0);
      this.last.set(pid, ms);
    }
    let ms = 0;
    for (const [pid, last] of this.last) ms += last - (this.base.get(pid) ?? 0);
    return { ms, backends: this.last.size };
  }

  close(): Promise<void> {
    clearTimeout(this.timer);
    return this.db.end();
  }
}

export interface Running {
  pid: number;
  url: string;
  /** application_name of its Postgres connections. */
  app: string;
  /**
   * Resolves once the service's first database upkeep (a second after start) has finished, if it
   * found anything due: the bench measures the service as it runs once it has looked after itself.
   */
  settled(): Promise<void>;
  stop(): Promise<void>;
}

/** The Node flags `npm start` runs the server with (heap sizing), so the bench measures the same process. */
export function startFlags(): string[] {
  const start = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts.start as string;
  return start.split(/\s+/).filter((w) => w.startsWith('--'));
}

async function launch(args: string[], env: Record<string, string>, port: number, app: string): Promise<Running> {
  const child: ChildProcess = spawn(process.execPath, [...startFlags(), ...args], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), PGAPPNAME: app },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // the server's log passes through; its upkeep lines are watched (src/storage/pg/maintain.ts)
  let upkeep: 'none' | 'running' | 'done' = 'none';
  child.stderr?.on('data', (chunk: Buffer) => {
    process.stderr.write(chunk);
    const text = chunk.toString();
    if (text.includes('database upkeep: ')) upkeep = 'running';
    if (text.includes('database upkeep done')) upkeep = 'done';
  });
  const started = performance.now();
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 480; i++) {
    if (child.exitCode !== null) break;
    const up = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) {
      return {
        pid: child.pid as number,
        url,
        app,
        async settled() {
          const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
          await sleep(Math.max(0, 3000 - (performance.now() - started)));
          while (upkeep === 'running' && child.exitCode === null) await sleep(250);
        },
        async stop() {
          child.kill('SIGTERM');
          await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
          if (child.exitCode === null) child.kill('SIGKILL');
        },
      };
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  child.kill('SIGKILL');
  throw new Error(`${args.join(' ')} did not start`);
}

/** The Cairn server as `npm start` runs it (bin/cairn.js serve with its Node flags) on the prepared copy. */
export function startCairn(p: Prepared, port: number): Promise<Running> {
  return launch(
    [join(ROOT, 'bin', 'cairn.js'), 'serve'],
    { DATABASE_URL: p.databaseUrl ?? '', CAIRN_DATA_DIR: p.dataDir },
    port,
    'cairn-bench-server',
  );
}

/** The floor (./floor.ts) on the same database and driver, with the same Node flags. */
export function startFloor(p: Prepared, port: number): Promise<Running> {
  return launch(
    ['--import', 'tsx', join(import.meta.dirname, 'floor.ts')],
    { DATABASE_URL: p.databaseUrl ?? '', FLOOR_DATA_DIR: join(p.dataDir, 'floor-db') },
    port,
    'cairn-bench-floor',
  );
}

/** Whether the test runner runs on this machine (other engineers' tests share the 2 cores). */
export function testsRunning(): boolean {
  try {
    // no shell: `sh -c "pgrep -f vitest"` finds its own shell, whose command line names vitest
    return (
      execFileSync('pgrep', ['-f', 'vitest'], { stdio: ['ignore', 'pipe', 'ignore'] })
        .toString()
        .trim() !== ''
    );
  } catch {
    return false; // pgrep exits 1 when nothing matches
  }
}
