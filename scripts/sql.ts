/**
 * The data layer's source tools:
 *   npm run db:index    writes docs/sql-functions.md (function → file → callers)
 *   npm run db:freeze   records the hash of every versioned migration not yet frozen in
 *                       drizzle/frozen.sha256; run it when a migration lands on main — from then on
 *                       its bytes may not change (a test compares them)
 *   npm run db:release -- COMMIT
 *                       writes test/fixtures/releases/COMMIT/ from git: that release's migrations
 *                       (by hash; the bytes only where they differ from drizzle/ today) and its
 *                       function files, for the upgrade test (test/storage/upgrade.test.ts). Run
 *                       it for the release before yours and remove the older fixture.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { readMigrations, sha256 } from '../src/storage/pg/migrate';
import {
  FROZEN_PATH,
  INDEX_PATH,
  indexMarkdown,
  RELEASES_DIR,
  type ReleaseManifest,
  ROOT,
  readFrozen,
} from './sql-source';

const git = (...args: string[]) => execFileSync('git', args, { cwd: ROOT, encoding: 'utf8', maxBuffer: 1 << 26 });

/** The fixture of the release at `commit`: what a database migrated by it was built from. */
function writeRelease(commit: string) {
  const full = git('rev-parse', commit).trim();
  const dir = join(RELEASES_DIR, commit);
  const journal = JSON.parse(git('show', `${full}:drizzle/meta/_journal.json`)) as {
    entries: { tag: string; when: number }[];
  };
  const today = new Map(readMigrations().map((m) => [m.tag, m.sql]));
  const manifest: ReleaseManifest = { commit: full, migrations: [], functions: [] };
  for (const { tag, when } of journal.entries) {
    const bytes = git('show', `${full}:drizzle/${tag}.sql`);
    manifest.migrations.push({ tag, when, sha256: sha256(bytes) });
    if (today.get(tag) !== bytes) write(join(dir, 'drizzle', `${tag}.sql`), bytes);
  }
  const files = git('ls-tree', '-r', '--name-only', full, '--', 'sql')
    .split('\n')
    .filter((f) => f.endsWith('.sql'));
  for (const f of files) {
    write(join(dir, f), git('show', `${full}:${f}`));
    manifest.functions.push(f.slice('sql/'.length));
  }
  write(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  console.log(`wrote ${dir}: ${manifest.migrations.length} migrations, ${files.length} function files`);
}

function write(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const command = process.argv[2];
if (command === 'index') {
  writeFileSync(INDEX_PATH, indexMarkdown());
  console.log(`wrote ${INDEX_PATH}`);
} else if (command === 'freeze') {
  const frozen = readFrozen();
  const migrations = readMigrations();
  const added = migrations.filter((m) => !frozen.has(m.tag)).map((m) => m.tag);
  // a frozen migration keeps the hash it was frozen with, whatever its bytes are now
  const lines = migrations.map((m) => `${frozen.get(m.tag) ?? sha256(m.sql)}  ${m.tag}.sql\n`);
  writeFileSync(FROZEN_PATH, lines.join(''));
  console.log(added.length ? `froze ${added.join(', ')}` : 'every migration was frozen already');
} else if (command === 'release' && process.argv[3]) {
  writeRelease(process.argv[3]);
} else {
  console.error('usage: tsx scripts/sql.ts index | freeze | release COMMIT');
  process.exit(2);
}
