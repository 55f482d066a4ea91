import { cloudflareTest } from '@cloudflare/vitest-plugin';
import { defineConfig } from 'vitest/config';

const timeouts = { testTimeout: 30_000, hookTimeout: 90_000 };

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
