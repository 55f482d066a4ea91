/** The caller of a request, from its headers: key (by hash), agent identity, project header. */
import { hashKey, KEY_RE } from '../auth/keys';
import { Invalid, Unauthorized } from '../domain/errors';
import type { Caller } from '../mcp/tool';

export const DEFAULT_AGENT = 'default';
const MAX_AGENT = 128;

export async function callerFromHeaders(headers: Headers): Promise<Caller> {
  const key = (headers.get('x-svc-key') ?? headers.get('x-legacy-key') ?? '').trim();
  if (!key) throw new Unauthorized('missing API key: send it in the X-Svc-Key header');
  if (!KEY_RE.test(key))
    throw new Unauthorized('malformed API key: keys look like svc_ followed by at least 32 letters and digits');
  const agent = parseAgent(headers.get('x-svc-agent'));
  return {
    keyHash: await hashKey(key),
    agent: agent ?? DEFAULT_AGENT,
    agentIsDefault: agent === null,
    projectHeader: headers.get('x-svc-project')?.trim() || undefined,
  };
}

/** 1–128 printable characters, trimmed; absent or blank means the default agent. */
export function parseAgent(raw: string | null): string | null {
  const agent = raw?.trim();
  if (!agent) return null;
  if (agent.length > MAX_AGENT) throw new Invalid('X-Svc-Agent', `must be at most ${MAX_AGENT} characters`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(agent) || !agent.isWellFormed()) {
    throw new Invalid('X-Svc-Agent', 'must be printable characters only');
  }
  return agent;
}
