/**
 * The service's statements over a node-postgres pool, each within its bound (./bounds): a stalled
 * database or a network dropping packets costs a call its bound and a 503, never a hang, and a
 * connection that ran out of time is closed, not handed to the next call, so service resumes as
 * soon as the database answers again.
 */
import pg from 'pg';
import { DatabaseTimeout, type DbBounds, serverTimeout, waitFor } from './bounds';
import type { Execute } from './store';

/** node-postgres settings every connection to the server gets: connect timeout and keep-alive. */
export function connectionBounds(bounds: DbBounds): pg.ClientConfig {
  return {
    connectionTimeoutMillis: bounds.connectMs,
    keepAlive: bounds.keepAliveMs > 0,
    ...(bounds.keepAliveMs > 0 ? { keepAliveInitialDelayMillis: bounds.keepAliveMs } : {}),
  };
}

/**
 * The service's pool: the server cancels a statement past its bound and ends a session idle in a
 * transaction. The connect timeout is each connection's own: given to the pool, it would also cut
 * the wait for a free connection, which a burst of calls may need longer and which each call's
 * statement bound covers instead (`checkout`).
 */
export function boundedPool(config: pg.PoolConfig, bounds: DbBounds): pg.Pool {
  const { connectionTimeoutMillis, ...keepAlive } = connectionBounds(bounds);
  class BoundedClient extends pg.Client {
    constructor(options: pg.ClientConfig) {
      super({ ...options, connectionTimeoutMillis });
    }
  }
  return new pg.Pool({
    ...config,
    ...keepAlive,
    ...(bounds.statementMs > 0 ? { statement_timeout: serverTimeout(bounds.statementMs) } : {}),
    ...(bounds.idleTxMs > 0 ? { idle_in_transaction_session_timeout: bounds.idleTxMs } : {}),
    Client: BoundedClient as unknown as new () => pg.ClientBase,
  });
}

export function poolExecute(pool: pg.Pool, bounds: DbBounds): Execute {
  // statements go straight to the pool, each prepared once per connection under a name of its text
  // (drizzle only renders them): a tool call is one short statement, so what surrounds it counts
  const names = new Map<string, string>();
  const nameOf = (text: string) => {
    let name = names.get(text);
    if (!name && names.size < 1000) {
      name = `cairn_${names.size}`;
      names.set(text, name);
    }
    return name;
  };
  // an operator's bulk statement lifts the session's statement_timeout for itself alone
  const lifts = bounds.bulkStatementMs !== bounds.statementMs;
  // pg's `pool.query` closes the connection on any error, so each tool error raised in SQL (a 429,
  // an entry not found) cost a new backend and its statements prepared again; an error the server
  // answered leaves the connection as it was, and the connection goes back to the pool.
  return async ({ text, params, bound }) => {
    const ms = waitFor(bounds, bound);
    const started = performance.now();
    const client = await checkout(pool, ms);
    const left = () => (ms > 0 ? Math.max(1, ms - (performance.now() - started)) : 0);
    let broken: Error | undefined;
    // a checked-out client's connection error is emitted on it (unheard, it would end the process)
    const lost = (err: Error) => {
      broken = err;
    };
    client.on('error', lost);
    try {
      const bulk = bound === 'bulk' && lifts;
      if (bulk)
        await send(client, { text: `SET statement_timeout = ${serverTimeout(bounds.bulkStatementMs)}` }, left());
      let result: pg.QueryResult<Record<string, unknown>> | undefined;
      let failed: unknown;
      try {
        result = await send(client, { name: nameOf(text), text, values: params }, left());
      } catch (err) {
        failed = err;
      }
      // the session's own bound again, unless the connection goes anyway
      if (bulk && !(failed && connectionBroken(failed)))
        await send(client, { text: 'RESET statement_timeout' }, left());
      if (failed) throw failed;
      return result as pg.QueryResult<Record<string, unknown>>;
    } catch (err) {
      if (connectionBroken(err)) broken = err as Error;
      throw err;
    } finally {
      client.removeListener('error', lost);
      // a broken connection, or one still waiting for an answer, is closed (its socket destroyed)
      client.release(broken);
    }
  };
}

/**
 * A pooled connection within `ms` (0: no bound; opening one stays within the connect timeout). One
 * that arrives after the wait ran out goes back to the pool unused.
 */
function checkout(pool: pg.Pool, ms: number): Promise<pg.PoolClient> {
  if (ms === 0 || pool.idleCount > pool.waitingCount) return pool.connect();
  return new Promise((resolve, reject) => {
    let late = false;
    const timer = setTimeout(() => {
      late = true;
      reject(new DatabaseTimeout(ms));
    }, ms);
    pool.connect().then(
      (client) => {
        clearTimeout(timer);
        if (late) client.release();
        else resolve(client);
      },
      (err: unknown) => {
        clearTimeout(timer);
        if (!late) reject(err);
      },
    );
  });
}

/**
 * One statement within `ms` (0: unbounded). Sent in `query`'s callback form: its promise form kept
 * every result (the rows parsed, the query) alive past two young-generation collections, so all of
 * them were promoted to the old generation and a full collection ran every second or two under
 * load (docs/design.md, "CPU per call").
 */
function send(client: pg.PoolClient, query: pg.QueryConfig, ms: number) {
  return new Promise<pg.QueryResult<Record<string, unknown>>>((resolve, reject) => {
    const timer = ms > 0 ? setTimeout(() => reject(new DatabaseTimeout(ms)), ms) : undefined;
    client.query(query, (err: Error | null, result: pg.QueryResult<Record<string, unknown>>) => {
      clearTimeout(timer);
      if (err) reject(err);
      else resolve(result);
    });
  });
}

/**
 * Whether an error may have left its connection unusable: anything but the server's answer to a
 * statement (a wait that ran out leaves the statement unanswered on it), and the answers that say
 * the connection's prepared statements no longer hold (a cached plan whose result type changed,
 * 0A000; a statement the session lost, 26000), which a new connection mends.
 */
export function connectionBroken(err: unknown): boolean {
  if (!(err instanceof pg.DatabaseError)) return true;
  return err.severity === 'FATAL' || err.severity === 'PANIC' || err.code === '0A000' || err.code === '26000';
}
