/**
 * Postgres through Neon's serverless driver over HTTP: one tool call = one HTTP request carrying
 * one statement. No operation needs an interactive transaction, so the WebSocket driver is not
 * used. `fetchEndpoint` points the driver at a local SQL-over-HTTP endpoint in development.
 */
import { neon, neonConfig } from '@neondatabase/serverless';
import type { Store } from '../../domain/ports';
import { createPgStore } from './store';

export function createNeonStore(databaseUrl: string, fetchEndpoint?: string): Store {
  if (fetchEndpoint) neonConfig.fetchEndpoint = fetchEndpoint;
  const client = neon(databaseUrl);
  // rows as objects, with the result's fields: what drizzle's neon-http `execute` asked for
  return createPgStore(
    ({ text, params }) => client.query(text, params, { arrayMode: false, fullResults: true }),
    async () => {},
  );
}
