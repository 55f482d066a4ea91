/**
 * /mcp: MCP Streamable HTTP, stateless, JSON responses. A request is authenticated in the same
 * database round trip as its tool call; requests without a tool call (initialize, tools/list,
 * GET) authenticate on their own. 401/403/503 raised inside a tool become the exchange's status.
 *
 * The handler reads a request through `McpRequest`, so each runtime hands it over its own way: a
 * Hono context (`mcpRoute`, Workers and every other route), or on Node the request as the socket
 * delivered it (src/node/mcp.ts), without a web Request or Response on the way of a plain call.
 */
import type { Context } from 'hono';
import { SCOPE } from '../auth/oauth-tokens';
import { TooManyRequests } from '../domain/errors';
import type { Store } from '../domain/ports';
import type { createMcpEndpoint, Exchange, McpAnswer, McpHttp } from '../mcp/server';
import { parseJson, readLimited } from './body';
import { BAD_TOKEN, callerFromHeaders, type HeaderOf, usesBearer } from './caller';
import { errorResponse, jsonRpcError, KEY_CHALLENGE } from './errors';
import type { FailureLimiter } from './failures';
import { hostAndOriginRefusal } from './guard';

/** A request to /mcp as the handler reads it, on any runtime. */
export interface McpRequest extends McpHttp {
  method: string;
  /** The request's Host: its header, else its URL's. */
  host(): string;
  /** The body, read whole; more than `maxBytes` is refused (413) before it is all read. */
  body(maxBytes: number): Promise<Uint8Array>;
  /** The scheme and host the request was sent to (the OAuth resource's origin without CAIRN_BASE_URL). */
  origin(): string;
  /** The connection's peer address, as the runtime knows it. */
  peer(): string | undefined;
}

export interface McpDeps {
  store: Store;
  endpoint: ReturnType<typeof createMcpEndpoint>;
  maxBodyBytes: number;
  failures: FailureLimiter;
  /** The client's address: from the proxy's header when configured, else the peer. */
  addressOf: (header: HeaderOf, peer: string | undefined) => string;
  /** CAIRN_BASE_URL; without it the request's own origin names the protected resource. */
  publicUrl: string | undefined;
  allowedHosts: string[] | null;
  allowedOrigins: string[];
  log: (message: string, err?: unknown) => void;
}

/** Answers any request to /mcp. */
export function mcpHandler(deps: McpDeps): (req: McpRequest) => Promise<McpAnswer> {
  const { store, endpoint, maxBodyBytes, failures, addressOf, publicUrl, log } = deps;
  const refusal = hostAndOriginRefusal(deps.allowedHosts, deps.allowedOrigins);
  const base = (req: McpRequest) => publicUrl ?? req.origin();
  /** The protected resource a bearer token is bound to: this endpoint's URL. */
  const resource = (req: McpRequest) => () => `${base(req)}/mcp`;

  async function post(req: McpRequest): Promise<McpAnswer> {
    const caller = await callerFromHeaders(req.header, resource(req));
    const type = req.header('content-type') ?? '';
    if (!/^application\/json\s*(;|$)/i.test(type)) {
      return jsonRpcError(415, 'Content-Type must be application/json');
    }
    const body = parseJson(await req.body(maxBodyBytes));
    if (!isToolCall(body)) await store.whoami(caller.keyHash, caller);
    const exchange: Exchange = { caller };
    const answer = await endpoint(req, body, exchange);
    // a limit reached inside a batch (2025-03-26) is that call's answer: the calls before it are
    // done and answered, so the batch is not turned into one 429 that would hide them
    const batchLimit = Array.isArray(body) && exchange.failure instanceof TooManyRequests;
    if (exchange.failure && !batchLimit) throw exchange.failure;
    return answer;
  }

  // No server-initiated stream and no sessions: GET says whether the key is good, then 405.
  async function other(req: McpRequest): Promise<McpAnswer> {
    if (req.method === 'GET' || req.method === 'HEAD') {
      const caller = await callerFromHeaders(req.header, resource(req));
      await store.whoami(caller.keyHash, caller);
      return jsonRpcError(405, 'Method not allowed: this server is stateless; POST JSON-RPC messages to /mcp', {
        allow: 'POST',
      });
    }
    if (req.method === 'DELETE') {
      return jsonRpcError(405, 'Method not allowed: this server keeps no sessions', { allow: 'POST' });
    }
    return jsonRpcError(405, 'Method not allowed', { allow: 'POST' });
  }

  return async (req) => {
    const refused = refusal(req.host(), req.header('origin') ?? undefined);
    if (refused) return refused;
    // A request presenting a wrong key or token is a failed authentication of its client address;
    // one without credentials is not (it asks how to authenticate). Every 401 says both ways: an
    // OAuth bearer token (with where to discover the authorization server) or an API key.
    const bearer = usesBearer(req.header);
    const presented = bearer || Boolean(req.header('x-svc-key') || req.header('x-legacy-key'));
    const bucket = `mcp:${addressOf(req.header, req.peer())}`;
    let answer: McpAnswer;
    try {
      if (presented) failures.check(bucket);
      answer = await (req.method === 'POST' ? post(req) : other(req));
    } catch (err) {
      answer = errorResponse(err, log);
    }
    if (answer.status !== 401) return answer;
    if (presented) {
      try {
        await failures.failed(bucket);
      } catch (err) {
        return errorResponse(err, log);
      }
    }
    const res = bearer ? jsonRpcError(401, BAD_TOKEN) : (answer as Response);
    const headers = new Headers(res.headers);
    const error = bearer ? `, error="invalid_token", error_description="${BAD_TOKEN}"` : '';
    headers.set(
      'www-authenticate',
      `Bearer resource_metadata="${base(req)}/.well-known/oauth-protected-resource/mcp", scope="${SCOPE}"${error}`,
    );
    headers.append('www-authenticate', KEY_CHALLENGE);
    return new Response(res.body, { status: 401, headers });
  };
}

/** A JSON answer as a web Response (what the plain requests' answer is where the runtime wants one). */
export function asResponse(answer: McpAnswer): Response {
  return answer instanceof Response
    ? answer
    : new Response(answer.json, { status: answer.status, headers: { 'content-type': 'application/json' } });
}

/** /mcp over Hono: the request as a Hono context has it. */
export function mcpRoute(handler: (req: McpRequest) => Promise<McpAnswer>, peer: (c: Context) => string | undefined) {
  return async (c: Context) => {
    const raw = c.req.raw;
    const req: McpRequest = {
      method: raw.method,
      header: (name) => raw.headers.get(name),
      host: () => raw.headers.get('host') ?? new URL(raw.url).host,
      body: (maxBytes) => readLimited(raw, maxBytes),
      web: () => raw,
      origin: () => new URL(raw.url).origin,
      peer: () => peer(c),
    };
    return asResponse(await handler(req));
  };
}

/** A tool call, or a batch (2025-03-26) of nothing else: each call authenticates and is metered in its own statement. */
function isToolCall(body: unknown): boolean {
  const one = (m: unknown) =>
    typeof m === 'object' && m !== null && !Array.isArray(m) && (m as { method?: unknown }).method === 'tools/call';
  return Array.isArray(body) ? body.length > 0 && body.every(one) : one(body);
}
