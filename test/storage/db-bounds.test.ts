/**
 * The service's pool on the real Postgres server keeps its bounds: the server cancels a statement
 * a margin before the statement bound and ends a session idle in a transaction; the client gives
 * up on a silent server at the bound and closes that connection; an operator's bulk statement
 * runs past the statement bound, within its own, and leaves the session's bound as it was; a
 * connection whose statement ran out of time is closed, not handed to the next statement.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Unavailable } from '../../src/domain/errors';
import { DatabaseTimeout, type DbBounds, DEFAULT_BOUNDS } from '../../src/storage/pg/bounds';
import { boundedPool, poolExecute } from '../../src/storage/pg/pool';
import { type Execute, mapDbError } from '../../src/storage/pg/store';
import { PG_ADMIN_URL } from '../helpers/postgres';

const bounds: DbBounds = { ...DEFAULT_BOUNDS, statementMs: 400, bulkStatementMs: 5000, idleTxMs: 3000 };

describe('bounds on a node-postgres pool', () => {
  let pool: pg.Pool;
  let execute: Execute;
  const value = async (text: string, bound?: 'bulk') =>
    Object.values((await execute({ text, params: [], ...(bound ? { bound } : {}) })).rows[0] ?? {})[0];

  beforeAll(() => {
    pool = boundedPool({ connectionString: PG_ADMIN_URL, max: 1 }, bounds);
    pool.on('error', () => {});
    execute = poolExecute(pool, bounds);
  });
  afterAll(() => pool?.end());

  it('sets the server-side bounds on every session, the statement bound a margin short of the client', async () => {
    expect(await value('SHOW statement_timeout')).toBe('300ms');
    expect(await value('SHOW idle_in_transaction_session_timeout')).toBe('3s');
  });

  it('answers a statement past its bound with Unavailable: the server cancels it, the connection stays', async () => {
    const before = await value('SELECT pg_backend_pid()');
    const t0 = performance.now();
    const err = await execute({ text: 'SELECT pg_sleep(2)', params: [] }).catch((e: unknown) => e);
    expect(performance.now() - t0).toBeLessThan(400);
    expect(err).toMatchObject({ code: '57014' });
    expect(mapDbError(err)).toBeInstanceOf(Unavailable);
    expect(await value('SELECT pg_backend_pid()')).toBe(before);
  });

  it('gives up on a server that does not answer within the bound, and closes that connection', async () => {
    // the client's bound shorter than the session's: the server stays silent past it
    const other = boundedPool({ connectionString: PG_ADMIN_URL, max: 1 }, bounds);
    other.on('error', () => {});
    const impatient = poolExecute(other, { ...bounds, statementMs: 100 });
    const pid = async () => (await impatient({ text: 'SELECT pg_backend_pid() AS p', params: [] })).rows[0]?.p;
    try {
      const before = await pid();
      const t0 = performance.now();
      const err = await impatient({ text: 'SELECT pg_sleep(0.25)', params: [] }).catch((e: unknown) => e);
      expect(performance.now() - t0).toBeLessThan(200);
      expect(err).toBeInstanceOf(DatabaseTimeout);
      expect(mapDbError(err)).toBeInstanceOf(Unavailable);
      expect(await pid()).not.toBe(before);
    } finally {
      await other.end();
    }
  });

  it('lets a burst queue for a connection past the connect bound, within the statement bound', async () => {
    const one = boundedPool({ connectionString: PG_ADMIN_URL, max: 1 }, { ...bounds, connectMs: 100 });
    one.on('error', () => {});
    const queued = poolExecute(one, { ...bounds, statementMs: 3000 });
    try {
      const burst = Array.from({ length: 12 }, () => queued({ text: 'SELECT pg_sleep(0.02)', params: [] }));
      const t0 = performance.now();
      expect((await Promise.allSettled(burst)).map((r) => r.status)).toEqual(Array(12).fill('fulfilled'));
      expect(performance.now() - t0).toBeGreaterThan(200); // the last waited past the connect bound
    } finally {
      await one.end();
    }
  });

  it("runs a bulk statement within its own bound, and the session's bound holds again after it", async () => {
    expect(await value('SELECT pg_sleep(0.8)::text', 'bulk')).toBe('');
    expect(await value('SHOW statement_timeout')).toBe('300ms');
    // and after a bulk statement that failed
    await expect(execute({ text: 'SELECT 1/0', params: [], bound: 'bulk' })).rejects.toThrow(/division by zero/);
    expect(await value('SHOW statement_timeout')).toBe('300ms');
  });
});
