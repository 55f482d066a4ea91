/**
 * The migration step, the same on PGlite, node-postgres and Neon (reached over TCP by
 * `cairn migrate`): in one transaction,
 *   1. the versioned migrations of `drizzle/` not yet applied (tables, indexes, row-level
 *      security, roles, backfills), recorded in drizzle's own table as drizzle-kit's migrator
 *      records them, so databases migrated by either agree;
 *   2. the SQL function files of `sql/<area>/<function>.sql` (the live definitions, written as
 *      `CREATE OR REPLACE`) whose content hash differs from the one recorded in
 *      `drizzle.cairn_sql_files` — every file when a versioned migration ran in this step, since
 *      a migration may drop what a file defines;
 *   3. the part of each migration just applied that follows a line `--> after-functions`: a
 *      backfill that calls functions runs against their new definitions.
 * A failure rolls the whole step back. Callers that may race (servers sharing a Postgres) hold
 * the migration lock around it.
 */
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The package's root: the nearest folder above this module holding drizzle/ (src/storage/pg/ from the sources, dist/ built). */
function packageRoot(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(dir, 'drizzle', 'meta', '_journal.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error('the migrations (drizzle/) are not beside this installation of cairn');
    dir = up;
  }
  return dir;
}

const ROOT = packageRoot();
export const MIGRATIONS_DIR = join(ROOT, 'drizzle');
export const FUNCTIONS_DIR = join(ROOT, 'sql');

/** What the migration step needs from a connection: run a script, run a query. */
export interface MigrationClient {
  /** Runs one or more statements without parameters (simple query protocol). */
  exec(sql: string): Promise<void>;
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
}

export interface Migration {
  tag: string;
  /** drizzle-kit's journal time: a migration is pending when it is later than the last applied. */
  when: number;
  sql: string;
}

export interface FunctionFile {
  /** Path under the functions folder, with forward slashes (`recall/cairn_recall_for.sql`). */
  path: string;
  sql: string;
}

export interface MigrationSources {
  migrations: Migration[];
  functions: FunctionFile[];
}

export interface MigrationReport {
  migrations: string[];
  functions: string[];
}

/** The line that splits a migration: what follows it runs after the function files. */
export const AFTER_FUNCTIONS = '--> after-functions';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** The versioned migrations of a drizzle-kit folder, in journal order. */
export function readMigrations(dir = MIGRATIONS_DIR): Migration[] {
  const journal = JSON.parse(readFileSync(join(dir, 'meta', '_journal.json'), 'utf8')) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map((e) => ({
    tag: e.tag,
    when: e.when,
    sql: readFileSync(join(dir, `${e.tag}.sql`), 'utf8'),
  }));
}

/** Every `.sql` file under the functions folder, sorted by path. */
export function readFunctionFiles(dir = FUNCTIONS_DIR): FunctionFile[] {
  const files: FunctionFile[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.sql')) {
        files.push({ path: relative(dir, full).split('\\').join('/'), sql: readFileSync(full, 'utf8') });
      }
    }
  };
  walk(dir);
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

export function readSources(): MigrationSources {
  return { migrations: readMigrations(), functions: readFunctionFiles() };
}

/** Applies what is pending, in one transaction; says what it applied. */
export async function migrate(db: MigrationClient, sources = readSources()): Promise<MigrationReport> {
  await db.exec('BEGIN');
  try {
    const report = await applyPending(db, sources);
    await db.exec('COMMIT');
    return report;
  } catch (err) {
    await db.exec('ROLLBACK').catch(() => {});
    throw err;
  }
}

async function applyPending(db: MigrationClient, { migrations, functions }: MigrationSources) {
  await db.exec(`CREATE SCHEMA IF NOT EXISTS drizzle;
    CREATE TABLE IF NOT EXISTS drizzle.__drizzle_migrations (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint);
    CREATE TABLE IF NOT EXISTS drizzle.cairn_sql_files (
      path text PRIMARY KEY, sha256 text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
  const [last] = await db.query('SELECT created_at FROM drizzle.__drizzle_migrations ORDER BY created_at DESC LIMIT 1');
  const lastWhen = last ? Number(last.created_at) : -1;
  const applied: string[] = [];
  const afterFunctions: string[] = [];
  for (const m of migrations) {
    if (m.when <= lastWhen) continue;
    const [before, after] = splitAfterFunctions(m.sql);
    await runStatements(db, before);
    if (after) afterFunctions.push(after);
    await db.query('INSERT INTO drizzle.__drizzle_migrations (hash, created_at) VALUES ($1, $2)', [
      sha256(m.sql),
      m.when,
    ]);
    applied.push(m.tag);
  }

  const recorded = new Map(
    (await db.query('SELECT path, sha256 FROM drizzle.cairn_sql_files')).map((r) => [r.path as string, r.sha256]),
  );
  // bodies are checked when called, not when defined: files reference each other in any order
  await db.exec('SET LOCAL check_function_bodies = off');
  const changed: string[] = [];
  for (const f of functions) {
    const hash = sha256(f.sql);
    if (applied.length === 0 && recorded.get(f.path) === hash) continue;
    await db.exec(f.sql);
    await db.query(
      `INSERT INTO drizzle.cairn_sql_files (path, sha256) VALUES ($1, $2)
       ON CONFLICT (path) DO UPDATE SET sha256 = EXCLUDED.sha256, applied_at = now()`,
      [f.path, hash],
    );
    changed.push(f.path);
  }
  const present = new Set(functions.map((f) => f.path));
  const gone = [...recorded.keys()].filter((p) => !present.has(p));
  if (gone.length) await db.query('DELETE FROM drizzle.cairn_sql_files WHERE path = ANY($1)', [gone]);
  for (const after of afterFunctions) await runStatements(db, after);
  return { migrations: applied, functions: changed };
}

function splitAfterFunctions(sql: string): [string, string | undefined] {
  const at = sql.search(/^--> after-functions[ \t]*$/m);
  return at < 0 ? [sql, undefined] : [sql.slice(0, at), sql.slice(at + AFTER_FUNCTIONS.length)];
}

async function runStatements(db: MigrationClient, sql: string) {
  for (const statement of sql.split('--> statement-breakpoint')) {
    if (statement.trim()) await db.exec(statement);
  }
}
