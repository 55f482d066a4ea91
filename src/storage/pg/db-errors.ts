/**
 * What a database error means to a caller: the SQLSTATE codes the SQL functions raise as domain
 * errors; no answer, a lost connection or a bound run out (src/storage/pg/bounds.ts) as
 * `Unavailable` (503, Retry-After); anything else as an error logged without the statement's
 * parameters or the values the database quotes.
 */
import {
  CairnError,
  Conflict,
  Forbidden,
  Invalid,
  LimitExceeded,
  type LimitInfo,
  NotFound,
  TooManyRequests,
  Unauthorized,
  Unavailable,
} from '../../domain/errors';

const UUID_SYNTAX = '22P02';
/** What a caller is told when the database cannot serve it. */
const DB_UNAVAILABLE = 'the database is temporarily unavailable; retry shortly';
/** numeric_value_out_of_range: a number past its column's type. */
const OUT_OF_RANGE = '22003';

/** Maps the SQLSTATE codes raised by the SQL functions to domain errors. */
export function mapDbError(err: unknown): Error {
  if (err instanceof CairnError) return err;
  const e = findPgError(err);
  const message = e?.message ?? 'database error';
  switch (e?.code) {
    case 'CN401':
      return new Unauthorized();
    case 'CN403':
      return new Forbidden(message);
    case 'CN404':
      return new NotFound(message);
    case 'CN409':
      return new Conflict(message);
    case 'CN413':
      return new LimitExceeded(message, 413);
    case 'CN503':
      return new Unavailable(message);
    case 'CN429':
      return new TooManyRequests(message, JSON.parse(e?.detail ?? '{}') as LimitInfo);
    case 'CN422': {
      const field = /^(\w+):/.exec(message)?.[1] ?? 'arguments';
      return new Invalid(field, message.replace(/^\w+:\s*/, ''));
    }
    case UUID_SYNTAX:
      return new Invalid('id', 'not a valid id');
    case OUT_OF_RANGE:
      // a whole number the schema allows but the database does not store (versions are 32-bit)
      return new Invalid('arguments', 'a number is too large: versions and counts go up to 2147483647');
  }
  // no answer (refused, cut, a bound run out), a connection or server failure, a statement cancelled
  // (statement_timeout) or a session ended idle in a transaction: retry shortly (503, Retry-After)
  if (!e?.code || /^(08|57P|53)/.test(e.code) || e.code === '57014' || e.code === '25P03') {
    return new Unavailable(DB_UNAVAILABLE);
  }
  // what gets logged: never the statement's parameters (keys, emails, password hashes), which the
  // driver's error carries, nor values the database quotes in its message or detail
  const where = e.where?.split('\n').find((line) => line.startsWith('PL/pgSQL function'));
  return new Error(`database error ${e.code}: ${e.message.replace(/"[^"]*"/g, '"…"')}${where ? ` (${where})` : ''}`);
}

function findPgError(err: unknown): { code?: string; message: string; detail?: string; where?: string } | undefined {
  let cur: unknown = err;
  for (let depth = 0; cur && depth < 5; depth++) {
    const c = cur as { code?: unknown; message?: unknown; detail?: unknown; cause?: unknown };
    if (typeof c.code === 'string' && /^[0-9A-Z]{5}$/.test(c.code)) {
      return {
        code: c.code,
        message: String(c.message ?? ''),
        detail: typeof c.detail === 'string' ? c.detail : undefined,
        where: typeof (c as { where?: unknown }).where === 'string' ? (c as { where: string }).where : undefined,
      };
    }
    cur = c.cause;
  }
  return undefined;
}
