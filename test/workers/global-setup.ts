/** Node side of the Workers tests: a fresh Postgres database, migrated, behind the Neon HTTP fixture. */
import type { TestProject } from 'vitest/node';
import { migratePostgres } from '../../src/storage/pg/client';
import { startNeonHttpFixture } from '../fixtures/neon-http';
import { createTestDatabase } from '../helpers/postgres';

export default async function setup(project: TestProject) {
  const db = await createTestDatabase();
  await migratePostgres(db.url);
  const neon = await startNeonHttpFixture();
  project.provide('databaseUrl', db.url);
  project.provide('neonEndpoint', neon.endpoint);
  return async () => {
    await neon.close();
    await db.drop();
  };
}

declare module 'vitest' {
  export interface ProvidedContext {
    databaseUrl: string;
    neonEndpoint: string;
  }
}
