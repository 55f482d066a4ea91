/** The Node entry: builds Deps (PGlite or Postgres, filesystem blobs) and serves the app. */
import { join } from 'node:path';
import { type HttpBindings, serve } from '@hono/node-server';
import { createApp } from './app';
import { type Config, parseConfig } from './config';
import type { Store } from './domain/ports';
import { createEmbedder, vectorSpace } from './embeddings/index';
import { nodeMetadataFetch } from './oauth/fetch-node';
import { createFsBlobStore } from './storage/blobs/fs';
import { openStore } from './storage/pg/client';

/** Opens the configured database; with semantic recall configured, sets up its vector store. */
export function openStoreFor(config: Config): Promise<Store> {
  return openStore({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'db'),
    role: config.dbRole,
    vectors: vectorSpace(config.embeddings),
  });
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
  const embedder = createEmbedder(config.embeddings);
  const store = await openStoreFor(config);
  if (embedder && store.vectorsUnavailable) {
    console.error(`[cairn] semantic recall is off: ${store.vectorsUnavailable}; recall is lexical`);
  }
  const blobs = createFsBlobStore(join(config.dataDir, 'blobs'));
  const app = createApp({
    config,
    store,
    blobs,
    embedder: store.vectorsUnavailable ? null : embedder,
    fetchMetadata: nodeMetadataFetch,
    clientAddress: (c) => (c.env as HttpBindings | undefined)?.incoming?.socket?.remoteAddress,
  });
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
