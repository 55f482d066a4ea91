/**
 * The stop hook: once per session, when the session changed files (a commit, or uncommitted
 * changes made since it started) and its agent recorded nothing in Cairn meanwhile (the ledger from
 * the session's start), it asks the agent to record what others will need before it finishes —
 * with the client's "block with a reason", which gives the model one more turn. Never when the
 * client says a stop hook already did (`stop_hook_active`), never twice, never with
 * CAIRN_STOP_HOOK=off. The reason carries no memory text: the client treats it as an instruction.
 */
import { AgentError, cacheDir, stopHookOff } from './config';
import { changedSince } from './git';
import { budget, type HookAnswer, type HookContext } from './hook-context';
import { callTool } from './mcp';
import { loadState, saveState } from './state';

export const RECORD_REASON =
  'Before you finish: this session changed files but recorded nothing in Cairn, the team’s shared memory. ' +
  'If it settled something others will need, record it now with the tools of the MCP server `cairn`, briefly: ' +
  'a decision and its reason (decide), a convention or a fact about the code, with its paths (remember), an ' +
  'outcome, a failure or its fix (observe). If nothing is worth keeping, say so in one line and finish.';

interface LedgerEvent {
  agent: string;
  actor_kind?: string | null;
}

export async function stop(ctx: HookContext): Promise<HookAnswer> {
  if (stopHookOff(ctx.env) || ctx.input.stop_hook_active === true || !ctx.session) return undefined;
  const dir = cacheDir(ctx.env);
  const state = loadState(dir, ctx.session);
  if (!state || state.stop_done || !state.root) return undefined;
  const changed = await changedSince(
    state.root,
    { head: state.head, dirty: state.dirty, at: state.started_ms },
    budget(ctx, 1000),
  );
  if (!changed) return undefined;
  const agent = ctx.config.agent ?? state.agent;
  const args: Record<string, unknown> = { view: 'ledger', since: state.started_at, limit: 50 };
  if (agent) args.agent = agent;
  const ledger = await callTool(ctx.config, 'space', args, {
    timeoutMs: budget(ctx, 1500),
    project: state.project ?? undefined,
  });
  if (ledger.isError) throw new AgentError(`the ledger: ${ledger.text.split('\n')[0]}`);
  const me = agent ?? (ledger.structured.caller as { agent?: string } | undefined)?.agent;
  const events = (ledger.structured.events as LedgerEvent[] | undefined) ?? [];
  const recorded = events.some((e) => e.agent === me && (e.actor_kind ?? 'agent') === 'agent');
  saveState(dir, ctx.session, { ...state, stop_done: true });
  return recorded ? undefined : { block: RECORD_REASON };
}
