/**
 * Reads the SQL source of the data layer: which functions each function file and each versioned
 * migration defines, which migrations are frozen, and who calls each function. Used by
 * `npm run db:index` / `db:freeze` (scripts/sql.ts) and by the tests that keep them true.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import {
  FUNCTIONS_DIR,
  type FunctionFile,
  MIGRATIONS_DIR,
  type Migration,
  readFunctionFiles,
  readMigrations,
  sha256,
} from '../src/storage/pg/migrate';

export const ROOT = join(import.meta.dirname, '..');
/** sha256sum's format (`<hash>  <file>`): `cd drizzle && sha256sum -c frozen.sha256` checks it too. */
export const FROZEN_PATH = join(MIGRATIONS_DIR, 'frozen.sha256');
export const INDEX_PATH = join(ROOT, 'docs', 'sql-functions.md');
export const RELEASES_DIR = join(ROOT, 'test', 'fixtures', 'releases');
export const AREAS = ['context', 'limits', 'entries', 'recall', 'tools', 'dashboard', 'oauth', 'admin'] as const;

const DEFINITION = /\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:public\.)?"?([a-z_][a-z0-9_]*)"?\s*\(/gi;

/** A function's definition through the end of its dollar-quoted body, or a DROP/ALTER FUNCTION. */
const FUNCTION_STATEMENT =
  /\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\b[\s\S]*?\$(\w*)\$[\s\S]*?\$\1\$|\b(?:DROP|ALTER)\s+FUNCTION\b[^;]*;/gi;

/** SQL without its `--` comments (string literals holding `--` do not occur in this code base). */
export function stripSqlComments(sql: string): string {
  return sql.replace(/--.*$/gm, '');
}

/** Names of the functions a script defines (CREATE [OR REPLACE] FUNCTION), in order. */
export function definedFunctions(sql: string): string[] {
  return [...stripSqlComments(sql).matchAll(DEFINITION)].map((m) => (m[1] as string).toLowerCase());
}

/** Frozen migrations: tag → recorded hash of its bytes. */
export function readFrozen(): Map<string, string> {
  if (!existsSync(FROZEN_PATH)) return new Map();
  const lines = readFileSync(FROZEN_PATH, 'utf8').split('\n').filter(Boolean);
  return new Map(
    lines.map((line) => {
      const [hash, file] = line.split(/\s+\*?/);
      return [(file as string).replace(/\.sql$/, ''), hash as string];
    }),
  );
}

/** A previous release, as test/fixtures/releases/<commit>/manifest.json records it. */
export interface ReleaseManifest {
  commit: string;
  migrations: { tag: string; when: number; sha256: string }[];
  /** Its function files, under the fixture's sql/ folder. */
  functions: string[];
}

/**
 * What breaks the rules of versioned migrations: a frozen one whose bytes changed, a frozen one
 * after an unfrozen one (only the newest may be in progress), an unfrozen one defining a function
 * that has its file. Empty when all is well.
 */
export function migrationProblems(migrations: Migration[], frozen: Map<string, string>, files: string[]): string[] {
  const problems: string[] = [];
  const known = new Set(migrations.map((m) => m.tag));
  for (const tag of frozen.keys()) if (!known.has(tag)) problems.push(`${tag} is frozen but no longer exists`);
  let unfrozenSeen: string | undefined;
  for (const m of migrations) {
    const hash = frozen.get(m.tag);
    if (hash === undefined) {
      unfrozenSeen ??= m.tag;
      for (const name of definedFunctions(m.sql)) {
        if (files.includes(name)) problems.push(`${m.tag} defines ${name}, which its function file defines`);
      }
    } else if (hash !== sha256(m.sql)) {
      problems.push(`${m.tag} changed after it was frozen (drizzle/frozen.sha256): restore it, add a new migration`);
    } else if (unfrozenSeen) {
      problems.push(`${m.tag} is frozen but the older ${unfrozenSeen} is not`);
    }
  }
  return problems;
}

export interface FunctionSource {
  name: string;
  file: FunctionFile;
  area: string;
}

/** Every function file with the one function it should define (its file name). */
export function functionSources(files = readFunctionFiles()): FunctionSource[] {
  return files.map((file) => ({
    name: file.path.replace(/^.*\//, '').replace(/\.sql$/, ''),
    area: file.path.split('/')[0] as string,
    file,
  }));
}

function sourceFiles(dir: string, out: string[] = []): string[] {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const full = join(dir, e.name);
    if (e.isDirectory()) sourceFiles(full, out);
    else if (/\.tsx?$/.test(e.name)) out.push(full);
  }
  return out;
}

function stripTsComments(code: string): string {
  return code.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|\s)\/\/.*$/gm, '$1');
}

const mentions = (code: string, name: string) => new RegExp(`\\b${name}\\b`).test(code);

/**
 * Who calls each function: other function files, statements of the versioned migrations that
 * are not function definitions (policies, triggers), and TypeScript under src/.
 */
export function callers(sources = functionSources(), migrations = readMigrations()): Map<string, string[]> {
  const sqlBodies = sources.map((s) => ({
    where: `sql/${s.file.path}`,
    name: s.name,
    code: stripSqlComments(s.file.sql).replace(DEFINITION, ''),
  }));
  const migrationStatements = migrations.map((m) => ({
    where: `drizzle/${m.tag}.sql`,
    code: stripSqlComments(m.sql).replace(FUNCTION_STATEMENT, ''),
  }));
  const ts = sourceFiles(join(ROOT, 'src')).map((f) => ({
    where: relative(ROOT, f),
    code: stripTsComments(readFileSync(f, 'utf8')),
  }));
  const out = new Map<string, string[]>();
  for (const s of sources) {
    out.set(s.name, [
      ...sqlBodies.filter((b) => b.name !== s.name && mentions(b.code, s.name)).map((b) => b.where),
      ...migrationStatements.filter((m) => mentions(m.code, s.name)).map((m) => m.where),
      ...ts.filter((t) => mentions(t.code, s.name)).map((t) => t.where),
    ]);
  }
  return out;
}

/** docs/sql-functions.md: every function, its file and its callers, by area. */
export function indexMarkdown(): string {
  const sources = functionSources();
  const calledBy = callers(sources);
  const sections = AREAS.map((area) => {
    const rows = sources
      .filter((s) => s.area === area)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((s) => {
        const who = calledBy.get(s.name) ?? [];
        return `| \`${s.name}\` | [${s.file.path}](../sql/${s.file.path}) | ${who.length ? who.map((w) => `\`${w}\``).join(', ') : '—'} |`;
      });
    return `## ${area}\n\n| function | file | called by |\n| --- | --- | --- |\n${rows.join('\n')}\n`;
  });
  return `# SQL functions

Generated by \`npm run db:index\` from \`sql/\`, \`drizzle/\` and \`src/\`; a test fails when it is
out of date. Each function's live definition is its file; docs/design.md ("The data layer as
source") says how files and migrations are applied. "Called by" lists other function files,
migration statements that are not function definitions (policies, triggers) and TypeScript
under \`src/\`.

${sections.join('\n')}`;
}

export { FUNCTIONS_DIR, MIGRATIONS_DIR };
