/**
 * `cairn hook EVENT [--client claude-code|codex]`: reads the client's hook payload on stdin and
 * answers with the client's hook JSON on stdout (the protocols as recorded on both clients:
 * ../shared/AGENT-SIDE.md §1.2–1.3 and §2.2). Claude Code and Codex share the shapes used here:
 * `hookSpecificOutput.additionalContext` for context, `{decision: "block", reason}` for Stop, and
 * an empty stdout for nothing. Each event has a hard time limit; the caller (cli.ts) turns every
 * failure into exit 0 with nothing on stdout and one line on stderr.
 */
import { type AgentConfig, AgentError } from './config';
import { type Client, type HookAnswer, type HookContext, type HookInput, str } from './hook-context';
import { sessionStart } from './session-start';
import { stop } from './stop';
import { userPrompt } from './user-prompt';

export const HOOK_EVENTS = ['session-start', 'user-prompt', 'stop'] as const;
export type HookEvent = (typeof HOOK_EVENTS)[number];
export const CLIENTS: readonly Client[] = ['claude-code', 'codex'];

/**
 * The time each event may take, start to exit. Well under the clients' own limits (Claude Code:
 * 30 s for UserPromptSubmit, longer for the others; a timed-out hook's output is dropped), since
 * UserPromptSubmit holds up every turn.
 */
export const LIMIT_MS: Record<HookEvent, number> = { 'session-start': 3000, 'user-prompt': 1500, stop: 2500 };

const EVENT_NAME: Record<HookEvent, string> = {
  'session-start': 'SessionStart',
  'user-prompt': 'UserPromptSubmit',
  stop: 'Stop',
};

/** Runs one event on a payload already read; the text to print on stdout ('' for nothing). */
export async function runHook(
  event: HookEvent,
  client: Client,
  payload: string,
  config: AgentConfig,
  env: Record<string, string | undefined>,
  deadline: number,
): Promise<string> {
  const input = parseInput(payload);
  const session =
    str(input.session_id) ?? (client === 'claude-code' ? env.CLAUDE_CODE_SESSION_ID?.trim() || undefined : undefined);
  // Claude Code names the project's root; Codex runs the hook in the session's directory
  const dir =
    (client === 'claude-code' ? env.CLAUDE_PROJECT_DIR?.trim() : undefined) || str(input.cwd) || process.cwd();
  const ctx: HookContext = { config, env, client, input, session, dir, left: () => deadline - Date.now() - 100 };
  const run = { 'session-start': sessionStart, 'user-prompt': userPrompt, stop }[event];
  return render(event, await run(ctx));
}

/** The client's JSON for an answer. */
export function render(event: HookEvent, answer: HookAnswer): string {
  if (!answer) return '';
  if ('block' in answer) return JSON.stringify({ decision: 'block', reason: answer.block });
  return JSON.stringify({
    hookSpecificOutput: { hookEventName: EVENT_NAME[event], additionalContext: answer.context },
  });
}

function parseInput(payload: string): HookInput {
  if (!payload.trim()) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    throw new AgentError('the hook input on stdin is not JSON');
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new AgentError('the hook input on stdin is not a JSON object');
  }
  return parsed as HookInput;
}
