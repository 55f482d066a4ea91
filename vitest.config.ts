import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

// a poll (expect.poll: a page that updates, a count that settles) waits up to 10 s, not 1 s: on a
// slow or busy machine a dashboard page takes longer than a second to answer, and what never
// comes still fails
const timeouts = { testTimeout: 30_000, hookTimeout: 90_000, expect: { poll: { timeout: 10_000 } } };

export default defineConfig({
  test: {
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      {
        test: {
          name: 'node',
          include: ['test/**/*.test.ts'],
          exclude: ['test/workers/**'],
          globalSetup: ['test/global-build.ts'],
          pool: 'forks',
          maxWorkers: 2,
          ...timeouts,
        },
      },
      {
        // Inside workerd: the Worker with local R2, reaching Postgres through the local
        // SQL-over-HTTP endpoint that test/workers/global-setup.ts starts.
        plugins: [
          cloudflareTest(({ inject }) => ({
            main: './src/worker.ts',
            wrangler: { configPath: './wrangler.toml' },
            miniflare: {
              bindings: {
                DATABASE_URL: inject<string>('databaseUrl'),
                CAIRN_NEON_HTTP_ENDPOINT: inject<string>('neonEndpoint'),
                CAIRN_ADMIN_TOKEN: 'workers-admin-token-0123456789',
              },
            },
          })),
        ],
        test: {
          name: 'workers',
          include: ['test/workers/**/*.test.ts'],
          globalSetup: ['test/workers/global-setup.ts'],
          ...timeouts,
        },
      },
    ],
  },
});
