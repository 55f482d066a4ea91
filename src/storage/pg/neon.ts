/**
 * Postgres through Neon's serverless driver over HTTP: one tool call = one HTTP request carrying
 * one statement. No operation needs an interactive transaction, so the WebSocket driver is not
 * used. `fetchEndpoint` points the driver at a local SQL-over-HTTP endpoint in development.
 * Each request is aborted when its statement's bound (./bounds) runs out: the caller gets 503
 * instead of waiting on a proxy or network that does not answer.
 */
import { neon, neonConfig } from '@neondatabase/serverless';
import type { Store } from '../../domain/ports';
import { DatabaseTimeout, type DbBounds, DEFAULT_BOUNDS, waitFor } from './bounds';
import { createPgStore } from './store';

export function createNeonStore(databaseUrl: string, fetchEndpoint?: string, bounds: DbBounds = DEFAULT_BOUNDS): Store {
  if (fetchEndpoint) neonConfig.fetchEndpoint = fetchEndpoint;
  const client = neon(databaseUrl);
  // rows as objects, with the result's fields: what drizzle's neon-http `execute` asked for
  return createPgStore(
    async ({ text, params, bound }) => {
      const ms = waitFor(bounds, bound);
      if (ms === 0) return client.query(text, params, { arrayMode: false, fullResults: true });
      const signal = AbortSignal.timeout(ms);
      try {
        return await client.query(text, params, { arrayMode: false, fullResults: true, fetchOptions: { signal } });
      } catch (err) {
        throw signal.aborted ? new DatabaseTimeout(ms) : err;
      }
    },
    async () => {},
  );
}
