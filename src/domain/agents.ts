/** Agent names: what X-Svc-Agent may declare and what a key may be bound to. */
import { Invalid } from './errors';

const MAX_AGENT = 128;

/** 1–128 printable characters, trimmed; absent or blank is null. `field` names the input in the error. */
export function agentName(raw: string | null | undefined, field: string): string | null {
  const agent = raw?.trim();
  if (!agent) return null;
  if (agent.length > MAX_AGENT) throw new Invalid(field, `must be at most ${MAX_AGENT} characters`);
  if (/[\u0000-\u001f\u007f-\u009f]/.test(agent) || !agent.isWellFormed()) {
    throw new Invalid(field, 'must be printable characters only');
  }
  return agent;
}
