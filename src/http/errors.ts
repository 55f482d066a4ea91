/** Errors outside a tool result: HTTP status plus a JSON-RPC error body. */
import {
  CairnError,
  LimitExceeded,
  type LimitInfo,
  ParseError,
  TooManyRequests,
  Unauthorized,
  Unavailable,
} from '../domain/errors';

const CODES: Record<number, number> = {
  400: -32600,
  401: -32001,
  403: -32003,
  404: -32004,
  405: -32000,
  409: -32009,
  413: -32013,
  415: -32000,
  429: -32029,
  503: -32050,
};

/** The `WWW-Authenticate` challenge of a 401: the key goes in the X-Svc-Key header. */
export const KEY_CHALLENGE = 'X-Svc-Key realm="cairn"';

export function jsonRpcError(
  status: number,
  message: string,
  headers: Record<string, string> = {},
  code = CODES[status] ?? -32603,
  data?: unknown,
): Response {
  const body = { jsonrpc: '2.0', error: data === undefined ? { code, message } : { code, message, data }, id: null };
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...headers },
  });
}

/** Maps any error to a response; unexpected errors are logged and answered without detail. */
export function errorResponse(err: unknown, log: (message: string, err?: unknown) => void): Response {
  if (err instanceof CairnError) {
    const headers: Record<string, string> = {};
    if (err instanceof Unauthorized) headers['www-authenticate'] = KEY_CHALLENGE;
    if ((err instanceof LimitExceeded || err instanceof Unavailable) && err.retryAfterSeconds !== undefined) {
      headers['retry-after'] = String(err.retryAfterSeconds);
    }
    if (err instanceof TooManyRequests) Object.assign(headers, rateLimitHeaders(err.info));
    return jsonRpcError(
      err.status,
      err.message,
      headers,
      err instanceof ParseError ? -32700 : undefined,
      err instanceof TooManyRequests ? err.info : undefined,
    );
  }
  log('unhandled error', err);
  return jsonRpcError(500, 'internal error');
}

/**
 * RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers): the policy hit, with its
 * quota and window, and what remains of it (nothing) until `t` seconds from now.
 */
export function rateLimitHeaders(info: LimitInfo): Record<string, string> {
  const name = `"${info.limit}"`;
  const policy = [name];
  if (info.value !== null) policy.push(`q=${info.value}`);
  if (info.window !== null) policy.push(`w=${info.window}`);
  return {
    'ratelimit-policy': policy.join(';'),
    ratelimit: `${name};r=0;t=${info.retry_after}`,
  };
}
