/**
 * DNS-rebinding and cross-site protection: Host checks in front of every route that names the
 * service (its MCP endpoint, OAuth issuer, dashboard), and Origin checks in front of /mcp.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { jsonRpcError } from './errors';

/** The 403 to answer a request with, by its Host and Origin; undefined when both may pass. */
type Refusal = (host: string, origin: string | undefined) => Response | undefined;

const hostOf = (c: Context) => c.req.header('host') ?? new URL(c.req.url).host;

/** Refuses a Host that CAIRN_ALLOWED_HOSTS (or the loopback default) does not list; null: any Host. */
function hostRefusal(allowedHosts: string[] | null): Refusal {
  const hosts = allowedHosts?.map((h) => h.toLowerCase()) ?? null;
  return (host) => {
    if (!hosts) return undefined;
    const name = hostname(host);
    return hosts.includes(name)
      ? undefined
      : jsonRpcError(403, `Host "${name}" is not allowed; set CAIRN_ALLOWED_HOSTS`);
  };
}

/** Host only: the OAuth routes and the dashboard, which browsers reach from their own origin. */
export function hostGuard(allowedHosts: string[] | null): MiddlewareHandler {
  const refuse = hostRefusal(allowedHosts);
  return async (c, next) => {
    const refused = refuse(hostOf(c), undefined);
    if (refused) return refused;
    await next();
  };
}

/** Host and Origin: what /mcp checks first, on every runtime (src/http/mcp.ts). */
export function hostAndOriginRefusal(allowedHosts: string[] | null, allowedOrigins: string[]): Refusal {
  const refuseHost = hostRefusal(allowedHosts);
  const origins = new Set(allowedOrigins.map((o) => o.toLowerCase().replace(/\/$/, '')));
  return (host, origin) =>
    refuseHost(host, origin) ??
    (origin !== undefined && !origins.has(origin.toLowerCase())
      ? jsonRpcError(403, 'this browser origin is not allowed; set CAIRN_ALLOWED_ORIGINS')
      : undefined);
}

function hostname(host: string): string {
  const h = host.toLowerCase();
  if (h.startsWith('[')) return h.slice(0, h.indexOf(']') + 1);
  return h.replace(/:\d+$/, '');
}
