/**
 * /mcp: MCP Streamable HTTP, stateless, JSON responses. A request is authenticated in the same
 * database round trip as its tool call; requests without a tool call (initialize, tools/list,
 * GET) authenticate on their own. 401/403/503 raised inside a tool become the exchange's status.
 */
import { type Context, Hono } from 'hono';
import { SCOPE } from '../auth/oauth-tokens';
import { TooManyRequests } from '../domain/errors';
import type { Store } from '../domain/ports';
import type { createMcpEndpoint, Exchange } from '../mcp/server';
import { parseJson, readLimited } from './body';
import { BAD_TOKEN, callerFromHeaders, usesBearer } from './caller';
import { jsonRpcError, KEY_CHALLENGE } from './errors';
import type { FailureLimiter } from './failures';

interface McpRouteDeps {
  store: Store;
  endpoint: ReturnType<typeof createMcpEndpoint>;
  maxBodyBytes: number;
  failures: FailureLimiter;
  addressOf: (c: Context) => string;
  /** The protected resource (this endpoint's URL) and where its OAuth metadata is. */
  resourceOf: (c: Context) => string;
  resourceMetadataOf: (c: Context) => string;
}

export function mcpRoutes(deps: McpRouteDeps) {
  const { store, endpoint, maxBodyBytes, failures, addressOf, resourceOf, resourceMetadataOf } = deps;
  const app = new Hono();

  // A request presenting a wrong key or token is a failed authentication of its client address;
  // one without credentials is not (it asks how to authenticate). Every 401 says both ways: an
  // OAuth bearer token (with where to discover the authorization server) or an API key.
  app.use('*', async (c, next) => {
    const bearer = usesBearer(c.req.raw.headers);
    const presented = bearer || Boolean(c.req.header('x-svc-key') || c.req.header('x-legacy-key'));
    const bucket = `mcp:${addressOf(c)}`;
    if (presented) failures.check(bucket);
    await next();
    if (c.res.status !== 401) return;
    if (presented) await failures.failed(bucket);
    const res = bearer ? jsonRpcError(401, BAD_TOKEN) : c.res;
    const headers = new Headers(res.headers);
    const error = bearer ? `, error="invalid_token", error_description="${BAD_TOKEN}"` : '';
    headers.set('www-authenticate', `Bearer resource_metadata="${resourceMetadataOf(c)}", scope="${SCOPE}"${error}`);
    headers.append('www-authenticate', KEY_CHALLENGE);
    c.res.headers.delete('www-authenticate'); // Hono copies the old response's headers over a new one
    c.res = new Response(res.body, { status: 401, headers });
  });

  app.post('/', async (c) => {
    const caller = await callerFromHeaders(c.req.raw.headers, resourceOf(c));
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return jsonRpcError(415, 'Content-Type must be application/json');
    }
    const body = parseJson(await readLimited(c.req.raw, maxBodyBytes));
    if (!isToolCall(body)) await store.whoami(caller.keyHash, caller);
    const exchange: Exchange = { caller };
    const response = await endpoint(c.req.raw, body, exchange);
    // a limit reached inside a batch (2025-03-26) is that call's answer: the calls before it are
    // done and answered, so the batch is not turned into one 429 that would hide them
    const batchLimit = Array.isArray(body) && exchange.failure instanceof TooManyRequests;
    if (exchange.failure && !batchLimit) throw exchange.failure;
    return response;
  });

  // No server-initiated stream and no sessions: GET says whether the key is good, then 405.
  app.get('/', async (c) => {
    const caller = await callerFromHeaders(c.req.raw.headers, resourceOf(c));
    await store.whoami(caller.keyHash, caller);
    return jsonRpcError(405, 'Method not allowed: this server is stateless; POST JSON-RPC messages to /mcp', {
      allow: 'POST',
    });
  });
  app.delete('/', () => jsonRpcError(405, 'Method not allowed: this server keeps no sessions', { allow: 'POST' }));
  app.all('/', () => jsonRpcError(405, 'Method not allowed', { allow: 'POST' }));
  return app;
}

/** A tool call, or a batch (2025-03-26) of nothing else: each call authenticates and is metered in its own statement. */
function isToolCall(body: unknown): boolean {
  const one = (m: unknown) =>
    typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { method?: unknown }).method === 'tools/call';
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}
