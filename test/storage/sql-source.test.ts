/**
 * The data layer's source holds its rules: versioned migrations never change once frozen, and do
 * not define what a function file defines; each function file defines exactly its one function;
 * the generated index is current. (The database side — every function of a migrated database is
 * its file's — is in upgrade.test.ts.)
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  AREAS,
  definedFunctions,
  functionSources,
  INDEX_PATH,
  indexMarkdown,
  migrationProblems,
  readFrozen,
} from '../../scripts/sql-source';
import { readMigrations, sha256 } from '../../src/storage/pg/migrate';

const migrations = readMigrations();
const sources = functionSources();
const names = sources.map((s) => s.name);

describe('versioned migrations', () => {
  it('are frozen as committed, and none defines a function that has a file', () => {
    expect(migrationProblems(migrations, readFrozen(), names)).toEqual([]);
    expect(readFrozen().size).toBeGreaterThanOrEqual(12); // 0000–0011 at least
  });

  it('the rules catch an edited frozen migration, a stray freeze and a function defined twice', () => {
    const [first, , second] = migrations as [(typeof migrations)[0], unknown, (typeof migrations)[0]]; // neither defines a function
    const frozen = new Map([[first.tag, sha256(first.sql)]]);
    const edited = [{ ...first, sql: `${first.sql}\n-- edited` }];
    expect(migrationProblems(edited, frozen, names)).toEqual([expect.stringMatching(/changed after it was frozen/)]);
    const newer = {
      tag: '9999_new',
      when: 1,
      sql: 'CREATE OR REPLACE FUNCTION public.cairn_sha256(p text) RETURNS text',
    };
    expect(migrationProblems([first, newer], frozen, names)).toEqual([
      '9999_new defines cairn_sha256, which its function file defines',
    ]);
    expect(migrationProblems([second, first], frozen, names)).toEqual([
      `${first.tag} is frozen but the older ${second.tag} is not`,
    ]);
  });
});

describe('function files', () => {
  it('each defines exactly the function it is named for, as CREATE OR REPLACE, in an area folder', () => {
    for (const s of sources) {
      expect(definedFunctions(s.file.sql), s.file.path).toEqual([s.name]);
      expect(s.file.sql, s.file.path).toMatch(/CREATE OR REPLACE FUNCTION/);
      expect(AREAS, s.file.path).toContain(s.area);
    }
    expect(new Set(names).size).toBe(names.length);
  });

  it('docs/sql-functions.md is current (npm run db:index)', () => {
    expect(readFileSync(INDEX_PATH, 'utf8')).toBe(indexMarkdown());
  });
});
