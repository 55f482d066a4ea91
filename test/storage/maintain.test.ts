/**
 * The database keeps itself (src/storage/pg/maintain.ts): tables that grew get VACUUM (ANALYZE)
 * from the service — planner statistics gathered, dead rows reclaimed — and nothing more, on
 * PGlite (which has no autovacuum) and on the Postgres server (which runs here without it).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/crypto';
import { uuidv7 } from '../../src/domain/ids';
import type { Store } from '../../src/domain/ports';
import { adminActions } from '../../src/operator/admin';
import { openStore } from '../../src/storage/pg/client';
import { scheduleMaintenance } from '../../src/storage/pg/maintain';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';

describe.each(['pglite', 'postgres'] as const)('database upkeep on %s', (kind) => {
  let store: Store;
  let pgdb: TestDatabase | undefined;
  let keyHash: string;

  beforeAll(async () => {
    pgdb = kind === 'postgres' ? await createTestDatabase() : undefined;
    store = await openStore(
      pgdb ? { databaseUrl: pgdb.url, maintenanceSeconds: 0 } : { dataDir: 'memory://', maintenanceSeconds: 0 },
    );
    const { key } = await adminActions(store, 'test').createOrg('upkeep');
    keyHash = await sha256Hex(key.secret);
  });
  afterAll(async () => {
    await store?.close();
    await pgdb?.drop();
  });

  /** What the planner believes of entries (Postgres: read as superuser): rows as the last VACUUM or ANALYZE saw them. */
  async function believedRows(): Promise<number | undefined> {
    if (!pgdb) return undefined;
    const rows = await pgdb.query(`SELECT reltuples FROM pg_class WHERE relname = 'entries'`);
    return Number(rows[0]?.reltuples);
  }

  it('vacuums and analyzes the tables that grew, then nothing until they grow again', async () => {
    const who = { keyHash, agent: 'a', project: null };
    for (let i = 0; i < 400; i++) {
      await store.call('write', who, {
        id: uuidv7(),
        kind: 'memory',
        op: 'remember',
        default_scope: null,
        dedup: false,
        content: `entry ${i}: the deploy of service ${i % 17} needs flag ${i % 5} and a migration`,
      });
    }
    const done = await store.maintain?.();
    expect(done).toEqual(expect.arrayContaining(['entries', 'postings', 'ledger', 'term_stats']));
    if (pgdb) expect(await believedRows()).toBe(400);
    expect(await store.maintain?.()).toEqual([]);
    // a fifth more rows: due again
    for (let i = 0; i < 200; i++) {
      await store.call('write', who, {
        id: uuidv7(),
        kind: 'memory',
        op: 'remember',
        default_scope: null,
        dedup: false,
        content: `later entry ${i} about the cache of service ${i % 13} ${'and more words '.repeat(8)}`,
      });
    }
    expect(await store.maintain?.()).toContain('entries');
    if (pgdb) expect(await believedRows()).toBe(600);
  });

  it('gathers the statistics of a table an index build counted but never analysed', async () => {
    if (!pgdb) return; // made by hand, as superuser: the state a migration adding an index leaves
    await pgdb.query(`CREATE TABLE upkeep_probe AS SELECT g AS n, md5(g::text) AS t FROM generate_series(1, 5000) g`);
    await pgdb.query('CREATE INDEX upkeep_probe_idx ON upkeep_probe (n)'); // sets relpages and reltuples
    await pgdb.query('GRANT SELECT ON upkeep_probe TO cairn_app');
    const stats = async () =>
      Number((await pgdb?.query(`SELECT count(*) AS n FROM pg_stats WHERE tablename = 'upkeep_probe'`))?.[0]?.n);
    expect(await stats()).toBe(0);
    expect(await store.maintain?.()).toContain('upkeep_probe');
    expect(await stats()).toBeGreaterThan(0);
    expect(await store.maintain?.()).not.toContain('upkeep_probe');
  });
});

describe('upkeep schedule', () => {
  it('runs a second after start, says what it did, then waits for its period', async () => {
    let runs = 0;
    const lines: string[] = [];
    const upkeep = scheduleMaintenance(
      async () => {
        runs++;
        return {
          query: async (text) => (text.includes('cairn_maintenance_due') ? [{ relname: 'entries' }] : []),
          release: async () => {},
        };
      },
      3600,
      (line) => lines.push(line),
    );
    await new Promise((r) => setTimeout(r, 1500));
    await upkeep.stop();
    expect(runs).toBe(1);
    expect(lines[0]).toMatch(/^database upkeep: VACUUM \(ANALYZE\) of entries/);
    expect(lines[1]).toMatch(/^database upkeep done in \d+\.\d s$/);
  });

  it('runs nothing when its period is 0 (off)', async () => {
    let runs = 0;
    const upkeep = scheduleMaintenance(async () => {
      runs++;
      return null;
    }, 0);
    await new Promise((r) => setTimeout(r, 1200));
    await upkeep.stop();
    expect(runs).toBe(0);
  });
});
