/** DNS-rebinding and cross-site protection in front of /mcp: Host and Origin checks. */
import type { MiddlewareHandler } from 'hono';
import { jsonRpcError } from './errors';

export function hostAndOriginGuard(allowedHosts: string[] | null, allowedOrigins: string[]): MiddlewareHandler {
  const hosts = allowedHosts?.map((h) => h.toLowerCase());
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return async (c, next) => {
    if (hosts) {
      const host = hostname(c.req.header('host') ?? new URL(c.req.url).host);
      if (!hosts.includes(host)) return jsonRpcError(403, `Host "${host}" is not allowed; set CAIRN_ALLOWED_HOSTS`);
    }
    const origin = c.req.header('origin');
    if (origin !== undefined && !origins.has(origin.toLowerCase())) {
      return jsonRpcError(403, 'this browser origin is not allowed; set CAIRN_ALLOWED_ORIGINS');
    }
    await next();
  };
}

function hostname(host: string): string {
  const h = host.toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}
