/** The Node entry: builds Deps (PGlite or Postgres, filesystem blobs) and serves the app. */
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { createApp } from './app';
import { type Config, parseConfig } from './config';
import type { Store } from './domain/ports';
import { createFsBlobStore } from './storage/blobs/fs';
import { openStore } from './storage/pg/client';

export function openStoreFor(config: Config): Promise<Store> {
  return openStore({ databaseUrl: config.databaseUrl, dataDir: join(config.dataDir, 'db'), role: config.dbRole });
}

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  store: Store;
  close(): Promise<void>;
}

/** Starts the HTTP server; `env` is process.env or a test's own record. */
export async function startServer(env: Record<string, string | undefined>): Promise<RunningServer> {
  const config = parseConfig(env);
  const store = await openStoreFor(config);
  const blobs = createFsBlobStore(join(config.dataDir, 'blobs'));
  const app = createApp({ config, store, blobs });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const s = serve({ fetch: app.fetch, port: config.port, hostname: config.host }, () => resolve(s));
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  let closing: Promise<void> | undefined;
  return {
    url: env.CAIRN_BASE_URL ?? `http://${host}:${port}`,
    port,
    config,
    store,
    close() {
      closing ??= new Promise<void>((resolve) => server.close(() => resolve())).then(() => store.close());
      return closing;
    },
  };
}
