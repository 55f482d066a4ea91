/**
 * DNS-rebinding and cross-site protection: Host checks in front of every route that names the
 * service (its MCP endpoint, OAuth issuer, dashboard), and Origin checks in front of /mcp.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { jsonRpcError } from './errors';

/** The request's Host, when CAIRN_ALLOWED_HOSTS (or the loopback default) does not list it. */
function refusedHost(hosts: string[] | null, c: Context): string | undefined {
  if (!hosts) return undefined;
  const host = hostname(c.req.header('host') ?? new URL(c.req.url).host);
  return hosts.includes(host) ? undefined : host;
}

/** Host only: the OAuth routes and the dashboard, which browsers reach from their own origin. */
export function hostGuard(allowedHosts: string[] | null): MiddlewareHandler {
  const hosts = allowedHosts?.map((h) => h.toLowerCase()) ?? null;
  return async (c, next) => {
    const host = refusedHost(hosts, c);
    if (host !== undefined) return jsonRpcError(403, `Host "${host}" is not allowed; set CAIRN_ALLOWED_HOSTS`);
    await next();
  };
}

export function hostAndOriginGuard(allowedHosts: string[] | null, allowedOrigins: string[]): MiddlewareHandler {
  const hosts = allowedHosts?.map((h) => h.toLowerCase()) ?? null;
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return async (c, next) => {
    const host = refusedHost(hosts, c);
    if (host !== undefined) return jsonRpcError(403, `Host "${host}" is not allowed; set CAIRN_ALLOWED_HOSTS`);
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
