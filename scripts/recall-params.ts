/**
 * Recall's ranking with other values of its constants, for measuring only (`npm run bench:recall
 * -- --params …`, and `npm run bench:recall-cv`'s combinations): the constants are `v_* constant`
 * declarations of sql/recall/cairn_recall_for.sql. The benchmark's own embedded database is migrated as the
 * service would migrate it, then the function is defined again with the given values; the service
 * started on that directory finds every function file's hash recorded and keeps the redefinition.
 * Nothing in sql/ changes and no other database is touched.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pgliteMigrationClient } from '../src/storage/pg/client';
import { FUNCTIONS_DIR, type MigrationClient, migrate } from '../src/storage/pg/migrate';

export type RecallParams = Record<string, number | string>;

const FILE = join(FUNCTIONS_DIR, 'recall', 'cairn_recall_for.sql');

/** An argument that is JSON itself (an object) or the path of a file holding it. */
export function jsonArg(arg: string): unknown {
  return JSON.parse(arg.trim().startsWith('{') ? arg : readFileSync(arg, 'utf8'));
}

/** `--params`: a JSON object, inline or in a file, of constant name → value ({"v_lead": 0}). */
export function parseParams(arg: string): RecallParams {
  const params = jsonArg(arg);
  if (typeof params !== 'object' || params === null || Array.isArray(params)) {
    throw new Error('--params: a JSON object of constant name → value, e.g. {"v_lead": 0}');
  }
  return params as RecallParams;
}

/** The function's definition with each named constant set to its value; throws on an unknown name or a bad value. */
export function withParams(params: RecallParams, source = readFileSync(FILE, 'utf8')): string {
  let out = source;
  for (const [name, value] of Object.entries(params)) {
    const decl = new RegExp(`(\\n  ${name} constant (\\w+) := )([^;\\n]+);`);
    const m = decl.exec(out);
    if (!/^v_\w+$/.test(name) || !m) {
      const known = [...source.matchAll(/\n {2}(v_\w+) constant/g)].map((x) => x[1]).join(', ');
      throw new Error(`--params: ${name} is not a constant of cairn_recall_for (${known})`);
    }
    const type = m[2] as string;
    let literal: string;
    if (type === 'interval' && typeof value === 'string' && /^\d+ (second|minute|hour)s?$/.test(value)) {
      literal = `interval '${value}'`;
    } else if (type === 'int' && Number.isInteger(value)) literal = String(value);
    else if (type === 'float8' && typeof value === 'number' && Number.isFinite(value)) literal = String(value);
    else throw new Error(`--params: ${name} is ${type}, got ${JSON.stringify(value)}`);
    out = out.replace(decl, (_, head: string) => `${head}${literal};`);
  }
  return out;
}

/**
 * Defines cairn_recall_for with `params` on a migrated database and checks that each value took.
 * The recorded hash of its file stays, so the migration step leaves the redefinition in place.
 */
export async function redefine(db: MigrationClient, params: RecallParams): Promise<void> {
  const sql = withParams(params);
  await db.exec(sql);
  const [row] = await db.query("SELECT prosrc AS src FROM pg_proc WHERE proname = 'cairn_recall_for'");
  for (const name of Object.keys(params)) {
    const line = new RegExp(`\\n  ${name} constant \\w+ := [^;\\n]+;`).exec(sql)?.[0];
    if (!line || !String(row?.src).includes(line.trim())) throw new Error(`--params: ${name} did not take`);
  }
}

/** Migrates the embedded database in `dbDir` and defines cairn_recall_for with `params`. */
export async function prepareWithParams(dbDir: string, params: RecallParams): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const client = await PGlite.create(dbDir);
  try {
    const db = pgliteMigrationClient(client);
    await migrate(db);
    await redefine(db, params);
  } finally {
    await client.close();
  }
}

/** One org's figures on CodeRecall: R@5 and MRR as shares, and its questions ordered wrongly. */
export interface Figures {
  r5: number;
  mrr: number;
  violations: number;
}
/** One combination of constants measured on every org (`npm run bench:recall-cv`). */
export interface Run {
  params: RecallParams;
  /** The combination is the constants as they are. */
  current: boolean;
  perOrg: Record<string, Figures>;
}

/** Each constant's value in the function's source as it is, as the grid writes values. */
export function currentValues(names: string[], source = readFileSync(FILE, 'utf8')): RecallParams {
  return Object.fromEntries(
    names.map((name) => {
      const m = new RegExp(`\\n  ${name} constant \\w+ := ([^;\\n]+);`).exec(source);
      if (!m) throw new Error(`--grid: ${name} is not a constant of cairn_recall_for`);
      const raw = (m[1] as string).trim();
      const interval = /^interval '(.+)'$/.exec(raw);
      return [name, interval ? (interval[1] as string) : Number(raw)];
    }),
  );
}

/** Every combination of the grid's values, one value of each constant. */
export function combinations(grid: Record<string, (number | string)[]>): RecallParams[] {
  return Object.entries(grid).reduce<RecallParams[]>(
    (acc, [name, values]) => acc.flatMap((p) => values.map((v) => ({ ...p, [name]: v }))),
    [{}],
  );
}

/** A run's figure averaged over `orgs`. */
export function meanOver(run: Run, orgs: string[], f: keyof Figures): number {
  return orgs.reduce((s, o) => s + (run.perOrg[o]?.[f] ?? 0), 0) / orgs.length;
}

/** The run that does best on `orgs` together: R@5, then MRR, then the values as they are. */
export function best(runs: Run[], orgs: string[]): Run {
  const mean = (r: Run, f: keyof Figures) => meanOver(r, orgs, f);
  const better = (a: Run, b: Run) => {
    const eps = 1e-9;
    if (Math.abs(mean(a, 'r5') - mean(b, 'r5')) > eps) return mean(a, 'r5') > mean(b, 'r5');
    if (Math.abs(mean(a, 'mrr') - mean(b, 'mrr')) > eps) return mean(a, 'mrr') > mean(b, 'mrr');
    return a.current && !b.current;
  };
  return runs.reduce((x, y) => (better(y, x) ? y : x));
}
