/**
 * `npm run bench:recall -- --params` (scripts/recall-params.ts): the benchmark's own database gets
 * cairn_recall_for with other constants, and the migration step the service runs at start keeps
 * them; a name that is no constant, or a value of the wrong type, is refused by name.
 */
import { PGlite } from '@electric-sql/pglite';
import { describe, expect, it } from 'vitest';
import { best, combinations, currentValues, type Run, redefine, withParams } from '../../scripts/recall-params';
import { pgliteMigrationClient } from '../../src/storage/pg/client';
import { migrate } from '../../src/storage/pg/migrate';

describe('recall constants for one benchmark run', () => {
  it('sets each named constant and nothing else', () => {
    const source = withParams({});
    const changed = withParams({ v_lead: 0, v_cap: 100, v_thread: '10 minutes' });
    expect(changed).toContain('\n  v_lead constant float8 := 0;');
    expect(changed).toContain('\n  v_cap constant int := 100;');
    expect(changed).toContain("\n  v_thread constant interval := interval '10 minutes';");
    const differing = changed.split('\n').filter((line, i) => line !== source.split('\n')[i]);
    expect(differing).toHaveLength(3);
  });

  it('refuses a name that is no constant and a value of the wrong type', () => {
    expect(() => withParams({ v_nope: 1 })).toThrow(/v_nope is not a constant of cairn_recall_for \(v_cap, /);
    expect(() => withParams({ v_limit: 5 })).toThrow(/v_limit is not a constant/);
    expect(() => withParams({ v_cap: 1.5 })).toThrow(/v_cap is int, got 1.5/);
    expect(() => withParams({ v_lead: '0; DROP TABLE entries' })).toThrow(/v_lead is float8/);
  });

  it('survives the migration step the service runs when it starts', async () => {
    const client = await PGlite.create('memory://');
    try {
      const db = pgliteMigrationClient(client);
      await migrate(db);
      await redefine(db, { v_lead: 0.25 });
      expect((await migrate(db)).functions).toEqual([]);
      const [row] = await db.query("SELECT prosrc FROM pg_proc WHERE proname = 'cairn_recall_for'");
      expect(String(row?.prosrc)).toContain('v_lead constant float8 := 0.25;');
    } finally {
      await client.close();
    }
  });

  it('reads the values as they are and makes every combination of a grid', () => {
    expect(currentValues(['v_lead', 'v_cap', 'v_thread'])).toEqual({ v_lead: 0.5, v_cap: 250, v_thread: '30 minutes' });
    expect(() => currentValues(['v_limit'])).toThrow(/v_limit is not a constant/);
    expect(combinations({ v_lead: [0.25, 0.5], v_ref: [0.4, 0.6] })).toEqual([
      { v_lead: 0.25, v_ref: 0.4 },
      { v_lead: 0.25, v_ref: 0.6 },
      { v_lead: 0.5, v_ref: 0.4 },
      { v_lead: 0.5, v_ref: 0.6 },
    ]);
  });

  it('chooses for the orgs it is given: R@5, then MRR, then the values as they are', () => {
    const run = (v: number, current: boolean, perOrg: Record<string, [number, number]>): Run => ({
      params: { v_lead: v },
      current,
      perOrg: Object.fromEntries(Object.entries(perOrg).map(([o, [r5, mrr]]) => [o, { r5, mrr, violations: 0 }])),
    });
    const now = run(0.5, true, { a: [0.9, 0.8], b: [0.9, 0.8], c: [0.9, 0.8] });
    const up = run(0.25, false, { a: [0.95, 0.7], b: [0.9, 0.8], c: [0.8, 0.9] });
    const tie = run(1, false, { a: [0.9, 0.8], b: [0.9, 0.8], c: [0.9, 0.8] });
    // held out c: a and b are better off with 0.25 (R@5 first, though MRR falls)
    expect(best([now, up, tie], ['a', 'b'])).toBe(up);
    // held out a: b and c lose R@5 with 0.25; 1 ties with the values as they are, which stay
    expect(best([tie, now, up], ['b', 'c'])).toBe(now);
    // the same R@5, the better MRR
    const mrr = run(2, false, { b: [0.9, 0.85], c: [0.9, 0.8] });
    expect(best([now, mrr], ['b', 'c'])).toBe(mrr);
  });
});
