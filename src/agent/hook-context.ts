/** What a hook event is given and answers (hook.ts runs the events). */

import { wordsOf } from '../domain/terms';
import { vocabularyGroups } from '../domain/vocabulary';
import { clean } from './block';
import { type AgentConfig, AgentError } from './config';

export type Client = 'claude-code' | 'codex';

/** What the client sent on stdin, as far as the hooks read it. */
export interface HookInput {
  session_id?: unknown;
  cwd?: unknown;
  source?: unknown;
  prompt?: unknown;
  stop_hook_active?: unknown;
}

export interface HookContext {
  config: AgentConfig;
  env: Record<string, string | undefined>;
  client: Client;
  input: HookInput;
  /** The session's id, when the client sent one. */
  session: string | undefined;
  /** The directory the agent works in. */
  dir: string;
  /** Milliseconds left before the event's limit (less a margin to print and exit). */
  left(): number;
}

/** What an event answers: context for the model, a request to go on (Stop), or nothing. */
export type HookAnswer = { context: string } | { block: string } | undefined;

export const str = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

/** Time left for one request, or an AgentError when there is none. */
export function budget(ctx: HookContext, most: number): number {
  const left = Math.min(ctx.left(), most);
  if (left < 50) throw new AgentError('ran out of time');
  return left;
}

/**
 * What the rest of a hook may need once the server answers, made ready while it answers (5–15 ms
 * on the way out otherwise): node:crypto (the block's tag, the status fingerprint),
 * node:child_process (git: the marks), the Unicode classes that cleaning a text and splitting it
 * into words compile on first use (block.ts, terms.ts), and recall's synonyms (relevance.ts).
 */
export function warmUp(git: boolean): void {
  process.getBuiltinModule('node:crypto');
  if (git) process.getBuiltinModule('node:child_process');
  clean('é<x');
  wordsOf('é');
  vocabularyGroups('');
}
