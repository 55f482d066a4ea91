/**
 * Postgres through Neon's serverless driver over HTTP: one tool call = one HTTP request carrying
 * one statement. No operation needs an interactive transaction, so the WebSocket driver is not
 * used. `fetchEndpoint` points the driver at a local SQL-over-HTTP endpoint in development.
 */
import { neon, neonConfig } from '@neondatabase/serverless';
import { drizzle } from 'drizzle-orm/neon-http';
import type { Store } from '../../domain/ports';
import { createPgStore } from './store';

export function createNeonStore(databaseUrl: string, fetchEndpoint?: string): Store {
  if (fetchEndpoint) neonConfig.fetchEndpoint = fetchEndpoint;
  const db = drizzle({ client: neon(databaseUrl) });
  return createPgStore(
    (q) => db.execute(q) as unknown as Promise<{ rows: Record<string, unknown>[] }>,
    async () => {},
  );
}
