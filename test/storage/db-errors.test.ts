/**
 * An unexpected database error as the service logs it: never the statement's parameters or quoted
 * values; a database that cannot serve (unreachable, a bound run out) as 503 with Retry-After.
 */
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config';
import { Unavailable } from '../../src/domain/errors';
import { errorResponse } from '../../src/http/errors';
import { DatabaseTimeout, DEFAULT_BOUNDS, waitFor } from '../../src/storage/pg/bounds';
import { mapDbError } from '../../src/storage/pg/store';

describe('mapDbError', () => {
  it('keeps the code, message and place of an unexpected error, and drops parameters and values', () => {
    // as drizzle wraps a node-postgres error: the failed statement and its parameters, the cause
    const pgError = Object.assign(new Error('duplicate key value violates unique constraint "users_email_idx"'), {
      code: '23505',
      detail: 'Key (email)=(ada@example.com) already exists.',
      where:
        'SQL statement "INSERT INTO users …"\nPL/pgSQL function cairn_dash_signup(uuid,text,text,uuid,text) line 9',
    });
    const wrapped = Object.assign(
      new Error(
        'Failed query: SELECT cairn_dash_signup($1, $2, $3) params: ada@example.com,$argon2id$v=19$secret-hash',
      ),
      { cause: pgError },
    );
    const mapped = mapDbError(wrapped);
    const logged = `${mapped.message}\n${mapped.stack}`;
    expect(mapped.message).toBe(
      'database error 23505: duplicate key value violates unique constraint "…" (PL/pgSQL function cairn_dash_signup(uuid,text,text,uuid,text) line 9)',
    );
    expect(logged).not.toContain('ada@example.com');
    expect(logged).not.toContain('secret-hash');
    expect(logged).not.toContain('users_email_idx');
  });

  it('still says Unavailable when the database cannot be reached', () => {
    expect(mapDbError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBeInstanceOf(
      Unavailable,
    );
  });

  it('says Unavailable, 503 with Retry-After, when a bound runs out on either side', async () => {
    const waits = [
      new DatabaseTimeout(2000), // the client's own deadline
      Object.assign(new Error('canceling statement due to statement timeout'), { code: '57014' }),
      Object.assign(new Error('terminating connection due to idle-in-transaction timeout'), { code: '25P03' }),
    ];
    for (const err of waits) {
      const mapped = mapDbError(err);
      expect(mapped).toBeInstanceOf(Unavailable);
      const res = errorResponse(mapped, () => {});
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('2');
      expect(await res.json()).toMatchObject({
        error: { code: -32050, message: 'the database is temporarily unavailable; retry shortly' },
      });
    }
  });
});

describe('bounds on the database', () => {
  it('defaults, each configurable; the health check within 2 s whatever the statement bound', () => {
    expect(parseConfig({}).dbBounds).toEqual(DEFAULT_BOUNDS);
    const set = parseConfig({
      CAIRN_DB_CONNECT_TIMEOUT_MS: '2500',
      CAIRN_DB_STATEMENT_TIMEOUT_MS: '30000',
      CAIRN_DB_BULK_TIMEOUT_MS: '0',
      CAIRN_DB_IDLE_TX_TIMEOUT_MS: '60000',
      CAIRN_DB_KEEPALIVE_MS: '0',
    }).dbBounds;
    expect(set).toEqual({ connectMs: 2500, statementMs: 30000, bulkStatementMs: 0, idleTxMs: 60000, keepAliveMs: 0 });
    expect([waitFor(set, undefined), waitFor(set, 'bulk'), waitFor(set, 'health')]).toEqual([30000, 0, 1500]);
    expect(waitFor({ ...set, statementMs: 500 }, 'health')).toBe(500);
    expect(() => parseConfig({ CAIRN_DB_STATEMENT_TIMEOUT_MS: '0' })).toThrow(/CAIRN_DB_STATEMENT_TIMEOUT_MS/);
  });
});
