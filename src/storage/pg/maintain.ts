/**
 * The database keeps itself where nothing else does. PGlite has no autovacuum, and a Postgres
 * server may run without it: planner statistics then describe the tables as they were when small,
 * plans chosen for them stay, and dead rows are never reclaimed. A second after start, then every
 * `everySeconds` (off the request path: a timer, one run at a time), the service asks which tables
 * grew by a fifth since their last VACUUM or ANALYZE (sql/admin/cairn_maintenance_due.sql) and runs
 * `VACUUM (ANALYZE)` on those alone, smallest first. New statistics make Postgres plan the service's statements
 * again. Where autovacuum keeps up, nothing is ever due. Each run first folds what writes left
 * pending in orgs no call has touched since (sql/admin/cairn_seal_pending.sql).
 */

/** One connection able to VACUUM: a query, and a way to end it if it was opened for the run. */
export interface MaintenanceConnection {
  query(text: string): Promise<Record<string, unknown>[]>;
  release(): Promise<void>;
}

export interface Maintenance {
  /** Runs once now (the timer's runs and this one never overlap); says which tables it did. */
  run(): Promise<string[]>;
  /** No more runs; resolves when one under way has finished. */
  stop(): Promise<void>;
}

/**
 * VACUUM (ANALYZE) on each table that is due; `connect` gives a connection, or null to skip this
 * run. When any is due, `log` says so before and after (an operator sees why a first minute is slow).
 */
export async function maintainOnce(
  connect: () => Promise<MaintenanceConnection | null>,
  log: (message: string) => void = () => {},
): Promise<string[]> {
  const conn = await connect();
  if (!conn) return [];
  try {
    // what writes left pending in an org no call has touched since (cairn_org_seal)
    await conn.query('SELECT cairn_seal_pending()');
    const due = (await conn.query('SELECT relname FROM cairn_maintenance_due()')).map((r) => String(r.relname));
    if (due.length === 0) return [];
    const t0 = performance.now();
    log(`database upkeep: VACUUM (ANALYZE) of ${due.join(', ')} (grown since their last statistics)`);
    for (const relname of due) await conn.query(`VACUUM (ANALYZE) "${relname.replace(/"/g, '""')}"`);
    log(`database upkeep done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
    return due;
  } finally {
    await conn.release();
  }
}

/** Seconds after start of the first run. */
const FIRST_RUN_SECONDS = 1;

export function scheduleMaintenance(
  connect: () => Promise<MaintenanceConnection | null>,
  everySeconds: number,
  log: (message: string) => void = (m) => console.error(`[cairn] ${m}`),
): Maintenance {
  let running: Promise<string[]> | undefined;
  let stopped = false;
  const run = () => {
    running ??= maintainOnce(connect, log).finally(() => {
      running = undefined;
    });
    return running;
  };
  const tick = () => {
    if (stopped) return;
    run().catch((err) => log(`database upkeep failed: ${err instanceof Error ? err.message : String(err)}`));
  };
  // a first run a second after start: a database loaded or grown while no server ran (or by an
  // older release) gets statistics before its first minute of requests is planned without them
  const first = everySeconds > 0 ? setTimeout(tick, Math.min(everySeconds, FIRST_RUN_SECONDS) * 1000) : undefined;
  const timer = everySeconds > 0 ? setInterval(tick, everySeconds * 1000) : undefined;
  first?.unref();
  timer?.unref();
  return {
    run,
    async stop() {
      stopped = true;
      clearTimeout(first);
      clearInterval(timer);
      await running?.catch(() => []);
    },
  };
}
