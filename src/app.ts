/** createApp(deps): every route of Cairn on one Hono app, one error mapping. */
import { type Context, Hono } from 'hono';
import type { SetupLinks } from './auth/setup';
import type { Config } from './config';
import { dashboardRoutes } from './dashboard/routes';
import { RETRY_AFTER_SECONDS } from './domain/errors';
import { createMemoryService } from './domain/memory';
import type { BlobStore, Store } from './domain/ports';
import { type Embedder, resilient } from './embeddings/provider';
import { adminRoutes } from './http/admin';
import { errorResponse, jsonRpcError } from './http/errors';
import { failureLimiter } from './http/failures';
import { hostGuard } from './http/guard';
import { type McpRequest, mcpHandler, mcpRoute } from './http/mcp';
import { createMcpEndpoint, type McpAnswer } from './mcp/server';
import { type MetadataFetch, webMetadataFetch } from './oauth/clients';
import { oauthRoutes, wellKnownRoutes } from './oauth/routes';

export interface Deps {
  config: Config;
  store: Store;
  blobs: BlobStore;
  /** Semantic recall's provider; null or absent: recall is lexical. */
  embedder?: Embedder | null;
  /** Fetches OAuth client metadata documents (SSRF-safe per runtime); default: the Workers fetcher. */
  fetchMetadata?: MetadataFetch;
  /** The client's network address, as the runtime knows it (the socket's peer, CF-Connecting-IP). */
  clientAddress?: (c: Context) => string | undefined;
  log?: (message: string, err?: unknown) => void;
  /** The first start's setup link (Node; absent: /dashboard/setup opens nothing). */
  setup?: SetupLinks;
  /**
   * The local admin channel (Node on the embedded database): a token the server wrote to its data
   * directory, which opens /admin to requests from this machine only (`isLocal`: the connection's
   * peer is this machine; src/node/local-admin.ts).
   */
  localAdmin?: { token: string; isLocal: (c: Context) => boolean };
}

/** Headers a reverse proxy adds: a request carrying one did not start on this machine. */
const PROXY_HEADERS = ['forwarded', 'x-forwarded-for', 'x-real-ip'];

const defaultLog = (message: string, err?: unknown) => {
  console.error(`[cairn] ${message}`, err instanceof Error ? (err.stack ?? err.message) : (err ?? ''));
};

/** Cairn on one runtime: every route on a Hono app, and /mcp's handler for a runtime that serves it itself (Node). */
export interface Cairn {
  app: Hono;
  mcp: (req: McpRequest) => Promise<McpAnswer>;
}

export function createApp(deps: Deps): Hono {
  return createCairn(deps).app;
}

export function createCairn(deps: Deps): Cairn {
  const { config, store } = deps;
  const log = deps.log ?? defaultLog;
  const service = createMemoryService({
    store,
    blobs: deps.blobs,
    semantic: deps.embedder ? resilient(deps.embedder, { log, timeoutMs: config.embeddings?.timeoutMs }) : undefined,
  });
  const endpoint = createMcpEndpoint({
    service,
    version: config.version,
    maxArtifactBytes: config.maxArtifactBytes,
    maxBodyBytes: config.maxBodyBytes,
    log,
  });

  const failures = failureLimiter(store, config.authFailureLimit);
  /** Sign-ups and OAuth client registrations, every one counted per address. */
  const creations = failureLimiter(store, config.creationLimit);
  /** The proxy's header when configured (its last address: the one the proxy itself saw), else the runtime's. */
  const addressFrom = (header: (name: string) => string | null | undefined, peer: string | undefined) => {
    const forwarded = config.clientAddressHeader ? header(config.clientAddressHeader) : undefined;
    return forwarded?.split(',').at(-1)?.trim() || peer || 'unknown';
  };
  const addressOf = (c: Context) => addressFrom((name) => c.req.header(name), deps.clientAddress?.(c));

  const app = new Hono();
  app.onError((err) => errorResponse(err, log));
  app.notFound(() => jsonRpcError(404, 'Not found: the MCP endpoint is POST /mcp'));

  // the ping has its own deadline (HEALTH_MS, src/storage/pg/bounds.ts): 503 within 2 s on a stalled database
  app.get('/healthz', async (c) => {
    try {
      await store.ping();
      return c.json({ ok: true, version: config.version });
    } catch {
      return c.json({ ok: false, version: config.version }, 503, { 'retry-after': String(RETRY_AFTER_SECONDS) });
    }
  });
  app.get('/', (c) =>
    c.text(`Cairn ${config.version}: shared memory for agents. MCP endpoint: ${config.baseUrl}/mcp\n`),
  );
  for (const path of ['/oauth/*', '/.well-known/*', '/dashboard/*', '/dashboard']) {
    app.use(path, hostGuard(config.allowedHosts));
  }
  // the OAuth issuer comes from configuration, or from a Host that was checked: never from any Host
  if (!config.publicUrl && !config.issuerFromHost) {
    const off = async () =>
      jsonRpcError(
        503,
        'OAuth is off on this server: it is reachable by names it does not know; set CAIRN_BASE_URL (its public URL) or CAIRN_ALLOWED_HOSTS',
      );
    app.use('/oauth/*', off);
    app.use('/.well-known/oauth-*', off);
  }
  const publicUrl = config.publicUrl;
  const oauth = {
    store,
    publicUrl,
    fetchMetadata: deps.fetchMetadata ?? webMetadataFetch,
    creations,
    addressOf,
    ...config.oauth,
  };
  const mcp = mcpHandler({
    store,
    endpoint,
    maxBodyBytes: config.maxBodyBytes,
    failures,
    addressOf: addressFrom,
    publicUrl,
    allowedHosts: config.allowedHosts,
    allowedOrigins: config.allowedOrigins,
    log,
  });
  app.all(
    '/mcp',
    mcpRoute(mcp, (c) => deps.clientAddress?.(c)),
  );
  app.route('/.well-known', wellKnownRoutes(oauth));
  app.route('/oauth', oauthRoutes(oauth));
  // the local token opens /admin to this machine only: not to a request a proxy on it forwarded
  const localAdmin = deps.localAdmin;
  const forwarded = [...PROXY_HEADERS, config.clientAddressHeader ?? ''].filter(Boolean);
  const local = localAdmin && {
    token: localAdmin.token,
    allows: (c: Context) => localAdmin.isLocal(c) && !forwarded.some((h) => c.req.header(h) !== undefined),
  };
  app.route('/admin', adminRoutes(store, deps.blobs, { token: config.adminToken, local }, { failures, addressOf }));
  app.route(
    '/dashboard',
    dashboardRoutes({
      store,
      blobs: deps.blobs,
      publicUrl,
      oauth,
      signupOpen: config.signupOpen,
      setup: deps.setup,
      log,
      failures,
      creations,
      addressOf,
    }),
  );
  return { app, mcp };
}
