/**
 * Bounded waits toward the database (docs/design.md, "Bounded waits on the database"): how long a
 * statement, a connection and an idle transaction may take before the caller is answered 503
 * (`Unavailable`, Retry-After) instead of waiting on a database that stalls or a network that
 * drops packets.
 */

export interface DbBounds {
  /** Opening a connection (TCP, TLS, start-up). */
  connectMs: number;
  /** A statement's whole wait (a free connection, then the answer); the server cancels it a margin sooner. */
  statementMs: number;
  /** An operator's bulk statement (an export or import page, the sweep's keys); 0: no bound. */
  bulkStatementMs: number;
  /** A session left idle inside a transaction is ended by the server after this; 0: never. */
  idleTxMs: number;
  /** TCP keep-alive: first probe after this long idle (then 10 probes a second apart); 0: off. */
  keepAliveMs: number;
}

export const DEFAULT_BOUNDS: DbBounds = {
  connectMs: 5_000,
  statementMs: 10_000,
  bulkStatementMs: 600_000,
  idleTxMs: 10_000,
  keepAliveMs: 10_000,
};

/** /healthz's own deadline: an answer within 2 s whatever the statement bound. */
export const HEALTH_MS = 1_500;

/**
 * What a statement is: one of a call (the default), the health check's ping, or an operator's
 * bulk statement, each with its own bound.
 */
export type Bound = 'health' | 'bulk';

/** How long a statement of this kind may wait, in ms; 0: no bound. */
export function waitFor(bounds: DbBounds, bound: Bound | undefined): number {
  if (bound === 'health') return Math.min(HEALTH_MS, bounds.statementMs);
  if (bound === 'bulk') return bounds.bulkStatementMs;
  return bounds.statementMs;
}

/**
 * The server's statement_timeout for a statement the client waits `ms` for: a margin less (a
 * quarter, at most 1 s), so that a live server's cancel (57014, the connection kept) comes back
 * before the client gives up on a silent one (the connection closed). 0 (no bound) stays 0.
 */
export function serverTimeout(ms: number): number {
  return ms - Math.min(1_000, Math.floor(ms / 4));
}

/**
 * The database did not answer in time. It carries no SQLSTATE, so the store maps it to
 * `Unavailable` (503), as it does a refused or cut connection.
 */
export class DatabaseTimeout extends Error {
  constructor(ms: number) {
    super(`the database did not answer within ${ms} ms`);
    this.name = 'DatabaseTimeout';
  }
}
