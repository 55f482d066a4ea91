/**
 * /mcp: MCP Streamable HTTP, stateless, JSON responses. A request is authenticated in the same
 * database round trip as its tool call; requests without a tool call (initialize, tools/list,
 * GET) authenticate on their own. 401/403/503 raised inside a tool become the exchange's status.
 */
import { type Context, Hono } from 'hono';
import type { Store } from '../domain/ports';
import type { createMcpEndpoint, Exchange } from '../mcp/server';
import { parseJson, readLimited } from './body';
import { callerFromHeaders } from './caller';
import { jsonRpcError } from './errors';
import type { FailureLimiter } from './failures';

interface McpRouteDeps {
  store: Store;
  endpoint: ReturnType<typeof createMcpEndpoint>;
  maxBodyBytes: number;
  failures: FailureLimiter;
  addressOf: (c: Context) => string;
}

export function mcpRoutes({ store, endpoint, maxBodyBytes, failures, addressOf }: McpRouteDeps) {
  const app = new Hono();

  // A request presenting a wrong key is a failed authentication of its client address; one
  // without a key is not (it asks whether the endpoint needs one).
  app.use('*', async (c, next) => {
    if (!c.req.header('x-svc-key') && !c.req.header('x-legacy-key')) return next();
    const bucket = `mcp:${addressOf(c)}`;
    failures.check(bucket);
    await next();
    if (c.res.status === 401) await failures.failed(bucket);
  });

  app.post('/', async (c) => {
    const caller = await callerFromHeaders(c.req.raw.headers);
    const type = c.req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return jsonRpcError(415, 'Content-Type must be application/json');
    }
    const body = parseJson(await readLimited(c.req.raw, maxBodyBytes));
    if (!isToolCall(body)) await store.whoami(caller.keyHash);
    const exchange: Exchange = { caller };
    const response = await endpoint(c.req.raw, body, exchange);
    if (exchange.failure) throw exchange.failure;
    return response;
  });

  // No server-initiated stream and no sessions: GET says whether the key is good, then 405.
  app.get('/', async (c) => {
    const caller = await callerFromHeaders(c.req.raw.headers);
    await store.whoami(caller.keyHash);
    return jsonRpcError(405, 'Method not allowed: this server is stateless; POST JSON-RPC messages to /mcp', {
      allow: 'POST',
    });
  });
  app.delete('/', () => jsonRpcError(405, 'Method not allowed: this server keeps no sessions', { allow: 'POST' }));
  app.all('/', () => jsonRpcError(405, 'Method not allowed', { allow: 'POST' }));
  return app;
}

function isToolCall(body: unknown): boolean {
  return (
    typeof body === 'object' &&
    body !== null &&
    !Array.isArray(body) &&
    (body as { method?: unknown }).method === 'tools/call'
  );
}
