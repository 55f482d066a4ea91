/** The caller of a request, from its headers: key (by hash), agent identity, project header. */
import { hashKey, KEY_RE } from '../auth/keys';
import { accessTokenClient, accessTokenHash } from '../auth/oauth-tokens';
import { agentName, DEFAULT_AGENT } from '../domain/agents';
import { Unauthorized } from '../domain/errors';
import type { Caller } from '../mcp/tool';

/** A request header by its lower-case name (a web `Headers`, or Node's parsed headers). */
export type HeaderOf = (name: string) => string | null | undefined;

/**
 * An API key in X-Svc-Key (or X-Legacy-Key), else an OAuth access token in `Authorization: Bearer`,
 * bound to `resource()` (the MCP endpoint's URL): its hash covers the resource, and its client is
 * the agent unless X-Svc-Agent names one.
 */
export async function callerFromHeaders(header: HeaderOf, resource: () => string): Promise<Caller> {
  const key = (header('x-svc-key') ?? header('x-legacy-key') ?? '').trim();
  const agent = parseAgent(header('x-svc-agent') ?? null);
  const projectHeader = header('x-svc-project')?.trim() || undefined;
  if (!key) {
    const bearer = /^Bearer\s+(\S+)\s*$/i.exec(header('authorization') ?? '')?.[1];
    if (!bearer) {
      throw new Unauthorized('missing credentials: send an API key in the X-Svc-Key header, or an OAuth access token');
    }
    const client = accessTokenClient(bearer);
    if (client === null) throw new Unauthorized(BAD_TOKEN);
    return {
      keyHash: await accessTokenHash(resource(), bearer),
      agent: agent ?? client,
      agentSource: agent === null ? 'client' : 'header',
      projectHeader,
    };
  }
  if (!KEY_RE.test(key))
    throw new Unauthorized('malformed API key: keys look like svc_ followed by at least 32 letters and digits');
  return {
    keyHash: await hashKey(key),
    agent: agent ?? DEFAULT_AGENT,
    agentSource: agent === null ? 'default' : 'header',
    projectHeader,
  };
}

export const BAD_TOKEN = 'invalid, expired or revoked access token: refresh it, or authorize again';

/** Whether a request authenticates with a bearer token rather than an API key. */
export function usesBearer(header: HeaderOf): boolean {
  return !header('x-svc-key') && !header('x-legacy-key') && /^Bearer\s/i.test(header('authorization') ?? '');
}

/** An agent name (src/domain/agents.ts) read as UTF-8 text; absent or blank means the default agent. */
export function parseAgent(raw: string | null): string | null {
  return agentName(raw === null ? null : headerText(raw), 'X-Svc-Agent');
}

const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true }); // a byte order mark stays, to be refused

/**
 * A header's value as text. HTTP carries bytes, which runtimes hand over one character per byte
 * (Latin-1): a value whose bytes are UTF-8 (what clients send for `zoë` or `エージェント`) is read as
 * UTF-8, any other as it came (a Latin-1 `zoë`, one byte 0xEB, is not UTF-8 and stays `zoë`).
 */
export function headerText(raw: string): string {
  if (!/[\x80-\xff]/.test(raw) || /[^\x00-\xff]/.test(raw)) return raw;
  try {
    return UTF8.decode(Uint8Array.from(raw, (c) => c.charCodeAt(0)));
  } catch {
    return raw;
  }
}
