/**
 * A loaded database per size, made once and kept as a template; each run serves a fresh copy of
 * it. On Postgres the template is the database `cairn_bench_t<size>_<schema>` (the first 8 hex
 * digits of the manifest's hash, so that trees of other revisions keep their own) and the copy `cairn_bench`
 * (CREATE DATABASE … TEMPLATE, STRATEGY FILE_COPY: the same files, dead rows, visibility map and
 * planner statistics, or their absence); embedded, the template is the directory
 * `.cairn-bench/embedded-<size>` and the copy `.cairn-bench/run`. A template is reused while its
 * manifest (`.cairn-bench/<db>-<size>.json`) matches the schema (migrations and SQL function
 * files), the corpus and the loader; `--reload` makes it again.
 */
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { APP_ROLE, migratePostgres, openStore } from '../../src/storage/pg/client';
import { scheduleMaintenance } from '../../src/storage/pg/maintain';
import { readSources, sha256 } from '../../src/storage/pg/migrate';
import { createPgStore } from '../../src/storage/pg/store';
import type { Corpus } from './corpus';
import { type LoadResult, writeCorpus } from './load';

export type Db = 'postgres' | 'embedded';
export const ROOT = join(import.meta.dirname, '..', '..');
export const STATE = join(ROOT, '.cairn-bench');
export const ADMIN_URL = process.env.CAIRN_BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
/** The database each run serves (a copy of the template). */
export const RUN_DB = 'cairn_bench';
/** Bumped when the loader changes what it writes. */
const LOADER_VERSION = 3;

export interface Manifest extends LoadResult {
  db: Db;
  size: number;
  /** Hash of the migrations, the SQL function files, the corpus and the loader version. */
  schema: string;
  /** The loader's version (absent: loaded before it was recorded). */
  loader?: number;
  /** When the template was migrated in place to a later schema (--upgrade), if it was. */
  upgradedAt?: string;
  loadedAt: string;
  lanes: number;
}

export interface Prepared {
  db: Db;
  size: number;
  /** The copy the server serves: DATABASE_URL (Postgres), and CAIRN_DATA_DIR (blobs; embedded: also the database). */
  databaseUrl: string | undefined;
  dataDir: string;
  manifest: Manifest;
  reused: boolean;
}

export function dbUrl(name: string): string {
  const u = new URL(ADMIN_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

async function admin<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

function schemaHash(): string {
  const corpus = readFileSync(join(ROOT, '..', 'shared', 'bench', 'coderecall', 'dev.json'), 'utf8');
  return sha256(JSON.stringify({ sources: readSources(), corpus: sha256(corpus), loader: LOADER_VERSION }));
}

function readManifest(path: string): Manifest | undefined {
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Manifest) : undefined;
}

interface Options {
  reload: boolean;
  /** Migrate a template of an earlier schema in place instead of loading it again. */
  upgrade?: boolean;
  lanes: number;
  corpus: Corpus;
  log: (line: string) => void;
}

/** The template of this size, loaded first when none matches; its manifest, and whether it was reused. */
export async function ensureTemplate(
  db: Db,
  size: number,
  opts: Options,
): Promise<{ manifest: Manifest; reused: boolean }> {
  mkdirSync(STATE, { recursive: true });
  const path = join(STATE, `${db}-${size}.json`);
  const schema = schemaHash();
  const old = readManifest(path);
  const template = templateOf(db, size, schema);
  const exists =
    db === 'postgres'
      ? await admin(
          async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [template])).rowCount === 1,
        )
      : existsSync(template);
  if (!opts.reload && exists && old?.schema === schema && old.size === size) return { manifest: old, reused: true };
  if (!opts.reload && opts.upgrade && old?.size === size && old.loader === LOADER_VERSION) {
    const upgraded = await upgradeTemplate(db, size, old, schema, opts.log);
    if (upgraded) {
      writeFileSync(path, `${JSON.stringify(upgraded, null, 2)}\n`);
      return { manifest: upgraded, reused: true };
    }
  }
  rmSync(path, { force: true });
  const lanes = db === 'postgres' ? opts.lanes : 1; // PGlite has one connection
  opts.log(`${db} ${size}: loading the template (${lanes} lanes)…`);
  const loaded =
    db === 'postgres' ? await loadPostgres(template, size, opts) : await loadEmbedded(template, size, opts);
  const manifest: Manifest = {
    db,
    size,
    schema,
    loader: LOADER_VERSION,
    loadedAt: new Date().toISOString(),
    lanes,
    ...loaded,
  };
  writeFileSync(path, `${JSON.stringify(manifest, null, 2)}\n`);
  opts.log(
    `${db} ${size}: loaded ${loaded.written} entries (${loaded.refused} refused) in ${Math.round(loaded.seconds)} s, ${Math.round(loaded.written / loaded.seconds)} writes/s`,
  );
  return { manifest, reused: false };
}

/**
 * A template of an earlier schema, migrated in place as an installed database is by a release
 * (the migration step of src/storage/pg/migrate.ts), and renamed to the current schema: what a
 * release changes is measured without loading the org again. Undefined when it is not there.
 */
async function upgradeTemplate(
  db: Db,
  size: number,
  old: Manifest,
  schema: string,
  log: (line: string) => void,
): Promise<Manifest | undefined> {
  const from = templateOf(db, size, old.schema);
  const to = templateOf(db, size, schema);
  const t0 = performance.now();
  if (db === 'postgres') {
    const there = await admin(
      async (c) => (await c.query('SELECT 1 FROM pg_database WHERE datname = $1', [from])).rowCount === 1,
    );
    if (!there) return undefined;
    await migratePostgres(dbUrl(from));
    await admin((c) => c.query(`ALTER DATABASE ${from} RENAME TO ${to}`));
  } else {
    if (!existsSync(from)) return undefined;
    const store = await openStore({ dataDir: join(from, 'db'), maintenanceSeconds: 0 }); // migrates on open
    await store.close();
  }
  log(`${db} ${size}: template upgraded in place to this schema in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return { ...old, schema, upgradedAt: new Date().toISOString() };
}

function templateOf(db: Db, size: number, schema: string): string {
  return db === 'postgres' ? `cairn_bench_t${size}_${schema.slice(0, 8)}` : join(STATE, `embedded-${size}`);
}

/** Drops the copy a run served (what `prepare` made on Postgres). */
export function dropRunDb(): Promise<void> {
  return admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
  });
}

/** A fresh copy of the loaded database of this size, loading the template first when needed. */
export async function prepare(db: Db, size: number, opts: Options): Promise<Prepared> {
  const { manifest, reused } = await ensureTemplate(db, size, opts);
  const template = templateOf(db, size, manifest.schema);
  const dataDir = join(STATE, 'run');
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  if (db === 'postgres') {
    await admin(async (c) => {
      await c.query(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
      await c.query(`CREATE DATABASE ${RUN_DB} TEMPLATE ${template} STRATEGY FILE_COPY`);
    });
    return { db, size, databaseUrl: dbUrl(RUN_DB), dataDir, manifest, reused };
  }
  cpSync(template, dataDir, { recursive: true });
  rmSync(join(dataDir, 'db', 'cairn.lock'), { force: true });
  return { db, size, databaseUrl: undefined, dataDir, manifest, reused };
}

/** The service's store over its own pool: role cairn_app as the server, commits not waiting for the disk (the data is the same). */
async function loadPostgres(template: string, size: number, opts: Options) {
  await admin(async (c) => {
    await c.query(`DROP DATABASE IF EXISTS ${template} WITH (FORCE)`);
    await c.query(`CREATE DATABASE ${template}`);
  });
  const url = dbUrl(template);
  await migratePostgres(url);
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.lanes,
    options: `-c role=${APP_ROLE} -c synchronous_commit=off`,
  });
  const store = createPgStore(
    ({ text, params }) => pool.query(text, params),
    () => pool.end(),
  );
  // the upkeep a server would run meanwhile (src/storage/pg/maintain.ts), on an owner connection
  const upkeep = scheduleMaintenance(
    async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return { query: async (text) => (await client.query(text)).rows, release: () => client.end() };
    },
    60,
    opts.log,
  );
  try {
    return await writeCorpus(store, opts.corpus, size, opts.lanes, opts.log);
  } finally {
    await upkeep.stop();
    await store.close();
  }
}

async function loadEmbedded(template: string, size: number, opts: Options) {
  rmSync(template, { recursive: true, force: true });
  const store = await openStore({ dataDir: join(template, 'db') });
  try {
    return await writeCorpus(store, opts.corpus, size, 1, opts.log);
  } finally {
    await store.close();
  }
}
