/**
 * Database clients for Node: PGlite (embedded, on disk) and a Postgres server through
 * node-postgres. Each runs the migration step (./migrate: versioned migrations, then the SQL
 * function files) as the connecting role, then serves the service as role `cairn_app`, which
 * row-level security binds.
 */
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import pg from 'pg';
import type { Store } from '../../domain/ports';
import { type DbBounds, DEFAULT_BOUNDS } from './bounds';
import { scheduleMaintenance } from './maintain';
import { type MigrationClient, type MigrationReport, migrate } from './migrate';
import { boundedPool, connectionBounds, poolExecute } from './pool';
import { createPgStore } from './store';

export const APP_ROLE = 'cairn_app';
const MIGRATION_LOCK = 7_266_247; // pg_advisory_lock key: one migrator at a time
const MAINTENANCE_LOCK = 7_266_248; // pg_try_advisory_lock key: one process keeps the database at a time

export interface DatabaseOptions {
  /** Postgres URL; when absent the embedded database is used. */
  databaseUrl?: string | undefined;
  /** Directory of the embedded database; `memory://` keeps it in memory (tests). */
  dataDir?: string | undefined;
  /** Role the service runs as; empty to stay the connecting role. */
  role?: string | undefined;
  /** Connections in the node-postgres pool. */
  poolSize?: number | undefined;
  /** Semantic recall: set up the vector store for this model (see cairn_vectors_setup). */
  vectors?: { model: string; dimensions: number } | undefined;
  /** How often the service looks for tables to VACUUM and ANALYZE (./maintain); 0: never. Default 60. */
  maintenanceSeconds?: number | undefined;
  /** Postgres: bounded waits (./bounds; default DEFAULT_BOUNDS). The embedded database has no network to wait on. */
  bounds?: DbBounds | undefined;
}

type Query = (sql: string, params: unknown[]) => Promise<{ rows: Record<string, unknown>[] }>;

/** Sets up the vector store as the migrating role; returns why it cannot be, or undefined. */
async function setupVectors(query: Query, opts: DatabaseOptions): Promise<string | undefined> {
  if (!opts.vectors) return undefined;
  const { rows } = await query('SELECT cairn_vectors_setup($1, $2) AS r', [
    opts.vectors.model,
    opts.vectors.dimensions,
  ]);
  return (rows[0]?.r as string | null) ?? undefined;
}

/** What migrating a database did: the step's report, and why semantic recall cannot run, if so. */
export interface Migrated {
  applied: MigrationReport;
  vectorsUnavailable: string | undefined;
}

function withSetup(store: Store, { applied, vectorsUnavailable }: Migrated): Store {
  return { ...store, migrated: applied, ...(vectorsUnavailable === undefined ? {} : { vectorsUnavailable }) };
}

export async function openStore(opts: DatabaseOptions): Promise<Store> {
  return opts.databaseUrl ? openPostgres(opts.databaseUrl, opts) : openPglite(opts.dataDir ?? './.cairn/db', opts);
}

/** The embedded database, loaded only when used (a server on Postgres never pays for it). */
async function openPglite(dataDir: string, opts: DatabaseOptions): Promise<Store> {
  const { PGlite } = await import('@electric-sql/pglite');
  // pgvector is loaded only for semantic recall: it costs start-up time and memory
  const vector = opts.vectors ? (await import('@electric-sql/pglite-pgvector')).vector : undefined;
  const unlock = dataDir.startsWith('memory://') ? () => {} : lockDataDir(dataDir);
  const client = await PGlite.create(dataDir, vector ? { extensions: { vector } } : {});
  const applied = await migrate(pgliteMigrationClient(client));
  const vectorsUnavailable = await setupVectors((text, params) => client.query(text, params), opts);
  const role = opts.role ?? APP_ROLE;
  if (role) await client.exec(`SET ROLE ${quoteIdent(role)}`);
  // the service's role may VACUUM here (MAINTAIN, drizzle/0015); PGlite runs one statement at a time
  const upkeep = scheduleMaintenance(
    async () => ({
      query: async (text) => (await client.query<Record<string, unknown>>(text)).rows,
      release: async () => {},
    }),
    opts.maintenanceSeconds ?? 60,
  );
  const store = createPgStore(
    ({ text, params }) => client.query<Record<string, unknown>>(text, params),
    async () => {
      await upkeep.stop();
      await client.close();
      unlock();
    },
  );
  return withSetup({ ...store, maintain: upkeep.run }, { applied, vectorsUnavailable });
}

/**
 * The embedded database belongs to one process at a time: a second process opening the same
 * directory would corrupt it. A lock file names the holder; a stale one (dead pid) is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true });
  const lock = join(dataDir, 'cairn.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(lock, String(process.pid), { flag: 'wx' });
      return () => rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const holder = Number(readFileSync(lock, 'utf8'));
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new Error(
          `the embedded database in ${dataDir} is in use by process ${holder} (a running cairn server?); stop it first, or use the /admin API`,
        );
      }
      rmSync(lock, { force: true });
    }
  }
  throw new Error(`cannot lock the embedded database in ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Runs the migration step against a Postgres server, one migrator at a time (an advisory lock),
 * and sets up the vector store when asked; says what it applied, and why semantic recall cannot
 * run there, if it cannot.
 */
export async function migratePostgres(databaseUrl: string, opts: DatabaseOptions = {}): Promise<Migrated> {
  // connect timeout and keep-alive; no statement bound: a migration takes what it takes
  const client = new pg.Client({ connectionString: databaseUrl, ...connectionBounds(opts.bounds ?? DEFAULT_BOUNDS) });
  client.on('error', () => {}); // a lost connection fails the statement under way, which says so
  await client.connect();
  try {
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const applied = await migrate(pgMigrationClient(client));
    return { applied, vectorsUnavailable: await setupVectors((text, params) => client.query(text, params), opts) };
  } finally {
    await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => {});
    await client.end();
  }
}

/** PGlite as the migration step's connection. */
export function pgliteMigrationClient(client: PGlite): MigrationClient {
  return {
    exec: async (text) => {
      await client.exec(text);
    },
    query: async (text, params) => (await client.query<Record<string, unknown>>(text, params)).rows,
  };
}

/** node-postgres as the migration step's connection (also Neon's, over TCP). */
export function pgMigrationClient(client: pg.Client): MigrationClient {
  return {
    exec: async (text) => {
      await client.query(text);
    },
    query: async (text, params) => (await client.query(text, params)).rows,
  };
}

async function openPostgres(databaseUrl: string, opts: DatabaseOptions): Promise<Store> {
  const migrated = await migratePostgres(databaseUrl, opts);
  const role = opts.role ?? APP_ROLE;
  const bounds = opts.bounds ?? DEFAULT_BOUNDS;
  const pool = boundedPool(
    { connectionString: databaseUrl, max: opts.poolSize ?? 10, ...(role ? { options: `-c role=${role}` } : {}) },
    bounds,
  );
  pool.on('error', () => {}); // an idle client's error is reported on its next use
  // upkeep over the connecting role (it owns the tables), by one process at a time; its VACUUM runs
  // as long as it needs (off the request path), over a connection that keeps the connect timeout and
  // keep-alive
  const upkeep = scheduleMaintenance(async () => {
    const client = new pg.Client({ connectionString: databaseUrl, ...connectionBounds(bounds) });
    client.on('error', () => {}); // a lost connection fails the run's statement, which the run reports
    await client.connect();
    const locked = await client.query('SELECT pg_try_advisory_lock($1) AS ok', [MAINTENANCE_LOCK]);
    if (!locked.rows[0]?.ok) {
      await client.end();
      return null;
    }
    return {
      query: async (text) => (await client.query(text)).rows,
      release: () => client.end(),
    };
  }, opts.maintenanceSeconds ?? 60);
  const execute = poolExecute(pool, bounds);
  const store = createPgStore(execute, async () => {
    await upkeep.stop();
    await pool.end();
  });
  return withSetup({ ...store, maintain: upkeep.run }, migrated);
}

function quoteIdent(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
