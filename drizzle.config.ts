import { defineConfig } from 'drizzle-kit';

// Generates SQL migrations into drizzle/ from the schema. Hand-written SQL (row-level security,
// the per-tool functions) lives in migrations created with `drizzle-kit generate --custom`.
export default defineConfig({
  dialect: 'postgresql',
  schema: ['./src/storage/pg/schema.ts', './src/storage/pg/schema-accounts.ts', './src/storage/pg/schema-pending.ts'],
  out: './drizzle',
});
