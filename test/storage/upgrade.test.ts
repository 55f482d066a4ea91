/**
 * Every release upgrades a database of the one before: a database migrated as a previous release
 * left it (test/fixtures/releases/<commit>, written by `npm run db:release -- COMMIT`), then
 * migrated by this code, has exactly the schema, row-level security, grants and function
 * definitions of a fresh database of this code. On PGlite and on the Postgres server.
 *
 * 3a29589 is the last release on main before function files; add5fb2, the state its 0008 and 0010
 * were edited to afterwards (bytes the fixture keeps: drizzle, which never re-runs a migration,
 * would have left such a database with those functions; today's function files replace them);
 * aac01a0, the release before the brief (function files, migrations to 0012); de3632a, the release
 * before this one (migrations to 0037).
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELEASES_DIR, type ReleaseManifest } from '../../scripts/sql-source';
import { type VerifiableEvent, verifyChain } from '../../src/domain/ledger';
import {
  AFTER_FUNCTIONS,
  type MigrationSources,
  migrate,
  readFunctionFiles,
  readMigrations,
  readSources,
  sha256,
} from '../../src/storage/pg/migrate';
import { type Catalog, catalog, OWN_FUNCTIONS } from '../helpers/catalog';
import { RAW_KINDS, type RawDb, rawDatabase } from '../helpers/raw-db';

const RELEASES = readdirSync(RELEASES_DIR).map((commit) => {
  const dir = join(RELEASES_DIR, commit);
  return { commit, dir, manifest: JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as ReleaseManifest };
});

/** The release's migrations: its own bytes where the fixture keeps them, else today's, by hash. */
function releaseSources({ dir, manifest }: (typeof RELEASES)[number]): MigrationSources {
  const today = new Map(readMigrations().map((m) => [m.tag, m.sql]));
  const migrations = manifest.migrations.map(({ tag, when, sha256: hash }) => {
    const own = join(dir, 'drizzle', `${tag}.sql`);
    const sql = existsSync(own) ? readFileSync(own, 'utf8') : (today.get(tag) ?? '');
    expect(sha256(sql), `${tag} of release ${manifest.commit}`).toBe(hash);
    return { tag, when, sql };
  });
  const functions = manifest.functions.length ? readFunctionFiles(join(dir, 'sql')) : [];
  expect(functions.map((f) => f.path)).toEqual(manifest.functions);
  return { migrations, functions };
}

/** Migrates as the release did: drizzle's migrator before function files, the migration step after. */
async function migrateAsRelease(db: RawDb, sources: MigrationSources) {
  if (sources.functions.length) {
    await migrate(db, sources);
    return;
  }
  const folder = mkdtempSync(join(tmpdir(), 'cairn-release-'));
  mkdirSync(join(folder, 'meta'));
  const entries = sources.migrations.map((m, idx) => ({
    idx,
    version: '7',
    when: m.when,
    tag: m.tag,
    breakpoints: true,
  }));
  writeFileSync(
    join(folder, 'meta', '_journal.json'),
    JSON.stringify({ version: '7', dialect: 'postgresql', entries }),
  );
  for (const m of sources.migrations) writeFileSync(join(folder, `${m.tag}.sql`), m.sql);
  try {
    await db.drizzleMigrate(folder);
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const KEY = { id: '01900000-0000-7000-8000-0000000000aa', hash: 'upgrade-key-hash', prefix: 'svc_up', name: 'k' };
const ORG = '01900000-0000-7000-8000-0000000000bb';
const ENTRY = '01900000-0000-7000-8000-0000000000cc';
const LATER = '01900000-0000-7000-8000-0000000000dd';
const FAILED = '01900000-0000-7000-8000-0000000000ee';
const REPORT = '01900000-0000-7000-8000-0000000000ff';

describe.each(RAW_KINDS)('the migration step on %s', (kind) => {
  let fresh: RawDb;
  let freshCatalog: Catalog;

  beforeAll(async () => {
    fresh = await rawDatabase(kind);
    await migrate(fresh);
    freshCatalog = await catalog(fresh.query);
  });
  afterAll(() => fresh?.close());

  it('defines every function in exactly its file, and nothing else', async () => {
    const names = (await fresh.query(`SELECT p.proname AS name ${OWN_FUNCTIONS}`)).map((r) => r.name).sort();
    const files = readFunctionFiles().map((f) => f.path.replace(/^.*\//, '').replace(/\.sql$/, ''));
    expect(names).toEqual([...files].sort());
  });

  it('applies nothing the second time, and a changed file alone', async () => {
    expect(await migrate(fresh)).toEqual({ migrations: [], functions: [] });
    const sources = readSources();
    const changed = sources.functions.map((f) =>
      f.path === 'entries/cairn_sha256.sql' ? { ...f, sql: `-- touched\n${f.sql}` } : f,
    );
    expect(await migrate(fresh, { ...sources, functions: changed })).toEqual({
      migrations: [],
      functions: ['entries/cairn_sha256.sql'],
    });
    expect((await migrate(fresh)).functions).toEqual(['entries/cairn_sha256.sql']);
  });

  it('rolls back the whole step when a file fails', async () => {
    const sources = readSources();
    const broken = [
      {
        path: 'aaa/first.sql',
        sql: 'CREATE OR REPLACE FUNCTION cairn_upgrade_probe() RETURNS int LANGUAGE sql AS $$ SELECT 1 $$;',
      },
      ...sources.functions.map((f) =>
        f.path === 'tools/cairn_recall.sql' ? { ...f, sql: `${f.sql} this is not sql` } : f,
      ),
    ];
    await expect(migrate(fresh, { ...sources, functions: broken })).rejects.toThrow(/syntax error/);
    expect(await fresh.query(`SELECT to_regprocedure('cairn_upgrade_probe()') AS f`)).toEqual([{ f: null }]);
    expect(await migrate(fresh)).toEqual({ migrations: [], functions: [] });
  });

  it('changes a signature: a versioned migration drops the old one, its file makes the new one', async () => {
    const db = await rawDatabase(kind);
    try {
      const sources = readSources();
      await migrate(db, sources);
      const drop = { tag: '9999_probe', when: Date.now() + 1e9, sql: 'DROP FUNCTION cairn_sha256(text);' };
      const functions = sources.functions.map((f) =>
        f.path === 'entries/cairn_sha256.sql'
          ? {
              ...f,
              sql: `CREATE OR REPLACE FUNCTION cairn_sha256(p text, p_salt text DEFAULT '') RETURNS text
                LANGUAGE sql IMMUTABLE AS $$ SELECT encode(sha256(convert_to(p_salt || p, 'UTF8')), 'hex') $$;`,
            }
          : f,
      );
      const report = await migrate(db, { migrations: [...sources.migrations, drop], functions });
      expect(report.migrations).toEqual(['9999_probe']);
      expect(report.functions).toHaveLength(functions.length); // a migration ran: every file again
      const signatures = await db.query(
        `SELECT pg_get_function_identity_arguments(oid) AS args FROM pg_proc WHERE proname = 'cairn_sha256'`,
      );
      expect(signatures).toEqual([{ args: 'p text, p_salt text' }]);
    } finally {
      await db.close();
    }
  });

  it('runs what follows `--> after-functions` after the files: a backfill sees the new definitions', async () => {
    const db = await rawDatabase(kind);
    try {
      const sources = readSources();
      await migrate(db, sources);
      const backfill = {
        tag: '9999_backfill',
        when: Date.now() + 1e9,
        sql: `CREATE TABLE probe (v text);\n${AFTER_FUNCTIONS}\nINSERT INTO probe SELECT cairn_sha256('x');`,
      };
      const functions = sources.functions.map((f) =>
        f.path === 'entries/cairn_sha256.sql'
          ? {
              ...f,
              sql: `CREATE OR REPLACE FUNCTION cairn_sha256(p text) RETURNS text LANGUAGE sql AS $$ SELECT 'new:' || p $$;`,
            }
          : f,
      );
      await migrate(db, { migrations: [...sources.migrations, backfill], functions });
      expect(await db.query('SELECT v FROM probe')).toEqual([{ v: 'new:x' }]);
    } finally {
      await db.close();
    }
  });

  describe.each(RELEASES)('from release $commit', (release) => {
    let old: RawDb;
    beforeAll(async () => {
      old = await rawDatabase(kind);
      await migrateAsRelease(old, releaseSources(release));
      await old.query(`SELECT cairn_admin_create_org($1::uuid, 'upgraded', $2::jsonb, 'test')`, [
        ORG,
        JSON.stringify(KEY),
      ]);
      const entry = {
        kind: 'memory',
        op: 'remember',
        id: ENTRY,
        content: 'Orders run on version 17.',
        tags: ['database'],
      };
      await old.query(`SELECT cairn_write($1, 'a', NULL, $2::jsonb)`, [KEY.hash, JSON.stringify(entry)]);
      // a failure and a report of what went well, which the release's brief cue took for one too
      for (const [id, content] of [
        [FAILED, 'CI failed on main.'],
        [REPORT, 'Load test against staging: 0 errors.'],
      ])
        await old.query(`SELECT cairn_write($1, 'a', NULL, $2::jsonb)`, [
          KEY.hash,
          JSON.stringify({ kind: 'observation', op: 'observe', id, content }),
        ]);
    });
    afterAll(() => old?.close());

    it('ends with exactly the schema, security and functions of a fresh database', async () => {
      const before = await catalog(old.query);
      const report = await migrate(old);
      expect(report.functions).toHaveLength(readFunctionFiles().length);
      const after = await catalog(old.query);
      expect(after).toEqual(freshCatalog);
      // its functions were not today's (the rate-limit fix, recall) until the step ran
      expect(before.functions).not.toEqual(freshCatalog.functions);
    });

    it("keeps the release's data, served by today's functions and today's index", async () => {
      expect(await old.query(`SELECT cairn_whoami($1) ->> 'org_id' AS org`, [KEY.hash])).toEqual([{ org: ORG }]);
      // tags were not searched before 0012: the entry is found by its tag only once it is re-indexed
      const recalled = await old.query(
        `SELECT cairn_recall($1, 'a', NULL, '{"query": "database"}') -> 'hits' AS hits`,
        [KEY.hash],
      );
      expect(((recalled[0]?.hits ?? []) as { id: string }[]).map((h) => h.id)).toEqual([ENTRY]);
      // and it is filed under its tag for context by reference (0038's backfill)
      expect(
        await old.query(`SELECT lexeme FROM postings WHERE entry_id = $1 AND starts_with(lexeme, '@t:')`, [ENTRY]),
      ).toEqual([{ lexeme: '@t:database' }]);
      // the brief reads the partial indexes on its cue, rebuilt for today's cue (0039): the
      // report is no failure any more
      await old.query('SET enable_seqscan = off');
      const brief = JSON.stringify(
        await old.query(`SELECT cairn_space($1, 'a', NULL, '{"view": "brief"}') AS r`, [KEY.hash]),
      );
      await old.query('RESET enable_seqscan');
      expect(brief).toContain(FAILED);
      expect(brief).not.toContain(REPORT);
      // the chain the release wrote goes on: its events keep their form (no actor kind was
      // recorded before 0032), today's record theirs, and the whole chain verifies
      await old.query(`SELECT cairn_write($1, 'a', NULL, $2::jsonb)`, [
        KEY.hash,
        JSON.stringify({ kind: 'memory', op: 'remember', id: LATER, content: 'Written after the upgrade.' }),
      ]);
      const page = async (after: number) =>
        (await old.query(`SELECT cairn_admin_ledger($1::uuid, $2, 100) AS r`, [ORG, after]))[0]?.r as VerifiableEvent[];
      const kinds = release.manifest.migrations.some((m) => m.tag.startsWith('0032_'))
        ? ['operator', 'agent']
        : [null, null];
      expect((await page(0)).map((e) => [e.op, e.actor_kind])).toEqual([
        ['key.create', kinds[0]],
        ['remember', kinds[1]],
        ['observe', kinds[1]],
        ['observe', kinds[1]],
        ['remember', 'agent'],
      ]);
      expect(await verifyChain(ORG, page)).toEqual({ ok: true, events: 5, broken_at: null });
    });
  });
});
