/** An unexpected database error as the service logs it: never the statement's parameters or quoted values. */
import { describe, expect, it } from 'vitest';
import { Unavailable } from '../../src/domain/errors';
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
});
