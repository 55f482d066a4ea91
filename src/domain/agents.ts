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

/** The characters a name may be shown with bare in a text the model reads. */
const PLAIN_NAME = /^[\p{L}\p{N}._@+\-/:]+$/u;

/**
 * An agent's (or a member's) name as texts show it: bare when it is one plain word (`alice`,
 * `ci-bot`, `ana@acme.com`), quoted as a JSON string otherwise, so that no name can pass for
 * the words a text puts around it: an agent called `boss@acme.com (member)` or `alice (verified)`
 * shows as `"boss@acme.com (member)"`, never as the member or as the verified alice.
 */
export const nameText = (name: string): string => (PLAIN_NAME.test(name) ? name : JSON.stringify(name));
