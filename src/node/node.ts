/** The Node entry: builds Deps (PGlite or Postgres, filesystem blobs) and serves the app. */
import { createServer } from 'node:http';
import { join } from 'node:path';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import type { Context } from 'hono';
import { createCairn } from '../app';
import { parseSetupInvite, type SetupLinks, setupLinks } from '../auth/setup';
import { type Config, parseConfig } from '../config';
import type { Store } from '../domain/ports';
import { createEmbedder, vectorSpace } from '../embeddings/index';
import { nodeMetadataFetch } from '../oauth/fetch-node';
import { createFsBlobStore } from '../storage/blobs/fs';
import { openStore } from '../storage/pg/client';
import { fromThisMachine, localUrl, newLocalAdminToken, writeLocalAdmin } from './local-admin';
import { isMcpRequest, nodeMcpListener } from './mcp';
import { keepPrivate } from './private-files';

/** How long stopping waits for requests in flight before it closes their connections. */
const CLOSE_GRACE_MS = 10_000;

/**
 * How long a connection may take, so that idle or slow clients cannot hold sockets (and file
 * descriptors) without a proxy in front (docs/design.md, "Operating a running server"): the
 * request line and headers within 20 s of the connection or of the previous response (a socket
 * that sends nothing is closed then), the whole request, body included, within 120 s (8 MiB over
 * a slow link), a kept-alive connection closed after 5 s without a request, and any socket after
 * 60 s without a byte either way (a client that stops reading its answer). Node checks the first
 * two every 2 s.
 */
export const SERVER_TIMEOUTS = {
  headersTimeout: 20_000,
  requestTimeout: 120_000,
  keepAliveTimeout: 5_000,
  idleSocketTimeout: 60_000,
  connectionsCheckingInterval: 2_000,
} as const;

/**
 * Opens the configured database; with semantic recall configured, sets up its vector store. The data
 * directory (the embedded database, artifact bytes) is made private first (src/node/private-files.ts).
 * `poolSize`: this process's Postgres connections (default: the whole CAIRN_DB_POOL_SIZE).
 */
export async function openStoreFor(config: Config, poolSize = config.dbPoolSize): Promise<Store> {
  const tightened = keepPrivate(config.dataDir);
  if (tightened > 0) {
    // on stderr: a command's --json output stays one object on stdout
    console.error(
      `[cairn] ${config.dataDir} was readable by other users: made ${tightened} of its files and folders private (files 0600, folders 0700)`,
    );
  }
  const store = await openStore({
    databaseUrl: config.databaseUrl,
    dataDir: join(config.dataDir, 'db'),
    role: config.dbRole,
    poolSize,
    vectors: vectorSpace(config.embeddings),
    bounds: config.dbBounds,
  });
  // PGlite's first start writes its initial files with an explicit chmod (0666), past the umask;
  // their folder is already 0700, so nobody else could reach them meanwhile
  keepPrivate(config.dataDir);
  return store;
}

/** Where clients reach a server listening on `port`: CAIRN_BASE_URL, else http://HOST:port. */
export function serverUrl(config: Config, port: number): string {
  const host = config.host.includes(':') ? `[${config.host}]` : config.host;
  return config.publicUrl ?? `http://${host}:${port}`;
}

export interface RunningServer {
  url: string;
  port: number;
  config: Config;
  store: Store;
  /** The first start's setup link, which `cairn serve` mints when the org `default` has no owner. */
  setup: SetupLinks;
  /**
   * Stops accepting connections, lets the requests in flight finish (closing their connections
   * after CLOSE_GRACE_MS if they have not), then closes the database.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  /** This process's Postgres connections (a worker's share); default CAIRN_DB_POOL_SIZE. */
  poolSize?: number;
}

/**
 * Starts the HTTP server; `env` is process.env or a test's own record. On the embedded database it
 * also opens the local admin channel (src/node/local-admin.ts), which stopping closes. CAIRN_SETUP_INVITE
 * (internal): the setup link a primary process made, handed to its workers (src/auth/setup.ts).
 */
export async function startServer(
  env: Record<string, string | undefined>,
  opts: StartOptions = {},
): Promise<RunningServer> {
  const config = parseConfig(env);
  const embedder = createEmbedder(config.embeddings);
  const store = await openStoreFor(config, opts.poolSize);
  const blobs = createFsBlobStore(join(config.dataDir, 'blobs'));
  const setup = setupLinks(parseSetupInvite(env.CAIRN_SETUP_INVITE));
  const localToken = config.databaseUrl ? undefined : newLocalAdminToken();
  const socketOf = (c: Context) => (c.env as HttpBindings | undefined)?.incoming?.socket;
  const { app, mcp } = createCairn({
    config,
    store,
    blobs,
    embedder: store.vectorsUnavailable ? null : embedder,
    fetchMetadata: nodeMetadataFetch,
    clientAddress: (c) => socketOf(c)?.remoteAddress,
    setup,
    ...(localToken && {
      localAdmin: {
        token: localToken,
        isLocal: (c: Context) => fromThisMachine(socketOf(c)?.remoteAddress, socketOf(c)?.localAddress),
      },
    }),
  });
  // /mcp is served from the socket (src/node/mcp.ts); every other route through Hono
  const viaHono = getRequestListener(app.fetch);
  const viaSocket = nodeMcpListener(mcp, (err) => console.error('[cairn] /mcp failed', err));
  const { idleSocketTimeout, ...timeouts } = SERVER_TIMEOUTS;
  const server = createServer(timeouts, (req, res) => (isMcpRequest(req) ? viaSocket(req, res) : viaHono(req, res)));
  server.setTimeout(idleSocketTimeout); // with no 'timeout' listener, Node destroys the socket
  await new Promise<void>((resolve) => server.listen(config.port, config.host, resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const closeLocal = localToken
    ? writeLocalAdmin(config.dataDir, { url: localUrl(config.host, port), token: localToken, pid: process.pid })
    : () => {};
  let closing: Promise<void> | undefined;
  return {
    url: serverUrl(config, port),
    port,
    config,
    store,
    setup,
    close() {
      closeLocal();
      closing ??= new Promise<void>((resolve) => {
        const force = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
        server.close(() => {
          clearTimeout(force);
          resolve();
        });
      }).then(() => store.close());
      return closing;
    },
  };
}
