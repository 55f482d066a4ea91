/**
 * The user-prompt hook: recall on the prompt, and only the hits that fit it (relevance.ts) and were
 * not injected before in this session, at most `BUDGET` characters in all, each checked against
 * the working tree. A prompt with no telling word ("continue", "thanks, looks good") costs no call.
 */

import { tellingTerms } from '../domain/terms';
import { attribution, BLOCK_OVERHEAD, clean, memoryBlock } from './block';
import { AgentError, cacheDir } from './config';
import { dirtyState, findRepo, projectOf } from './git';
import { budget, type HookAnswer, type HookContext, str, warmUp } from './hook-context';
import { callTool } from './mcp';
import { type Candidate, entriesOf, fittingHits } from './relevance';
import { loadState, type SessionState, saveState, startedAt } from './state';
import { changeMarks } from './verify';

/** What one prompt may bring in at most, block included. */
export const BUDGET = 1500;
/** The part of a long prompt that is searched. */
const QUERY_CHARS = 2000;
const HEAD = 'Entries that match this prompt:';
/** A mark of verify.ts at its longest, with its brackets and the line break. */
const MARK = 204;

interface Hit extends Candidate {
  id: string;
  kind: string;
  agent: string;
  created_at: string;
  updated_at: string;
  version: number;
  commit: string | null;
  stale: { paths: string[]; by: string; says: string } | null;
}

export async function userPrompt(ctx: HookContext): Promise<HookAnswer> {
  const prompt = str(ctx.input.prompt) ?? '';
  if (tellingTerms(prompt).length === 0) return undefined;
  const dir = cacheDir(ctx.env);
  const saved = ctx.session ? loadState(dir, ctx.session) : undefined;
  // without the session-start hook's state: find the repository now, and start the session here
  const repo = saved ? undefined : await findRepo(ctx.dir, budget(ctx, 300));
  const project = saved ? (saved.project ?? undefined) : projectOf(ctx.config.project, repo);
  const root = saved ? saved.root : (repo?.root ?? null);
  const query = prompt.length > QUERY_CHARS ? prompt.slice(0, QUERY_CHARS) : prompt;
  const call = (name: string, args: Record<string, unknown>, onSent?: () => void) =>
    callTool(ctx.config, name, args, { timeoutMs: budget(ctx, 1200), project, onSent });
  const [result, overview, dirty] = await Promise.all([
    call('recall', { query, limit: 10 }, () => warmUp(root !== null)),
    // the org's size sets the relevance bar: the session-start hook records it, else ask once
    saved?.entries === undefined ? call('space', { view: 'overview', scope: 'org' }).catch(() => undefined) : undefined,
    repo && !saved ? dirtyState(repo.root, budget(ctx, 300)) : undefined,
  ]);
  if (result.isError) throw new AgentError(`recall: ${result.text.split('\n')[0]}`);
  const entries = saved?.entries ?? entriesOf(overview?.structured.counts);
  const seen = new Set(saved?.injected ?? []);
  const fitting = fittingHits(prompt, (result.structured.hits as Hit[] | undefined) ?? [], entries).filter(
    (h) => !seen.has(h.id),
  );
  const chosen: { hit: Hit; line: string }[] = [];
  let used = BLOCK_OVERHEAD + HEAD.length + 1;
  for (const hit of fitting) {
    const line = hitLine(hit);
    // room for a mark at its longest
    if (used + line.length + MARK > BUDGET) continue;
    chosen.push({ hit, line });
    used += line.length + MARK;
  }
  if (chosen.length === 0) return undefined;
  const marks =
    root && ctx.left() > 150
      ? await changeMarks(
          root,
          chosen.map((c) => c.hit),
          budget(ctx, 500),
        )
      : new Map<string, string>();
  const lines = chosen.map(({ hit, line }) => {
    const mark = marks.get(hit.id);
    return mark ? `${line} [${mark}]` : line;
  });
  if (ctx.session) {
    const state: SessionState = saved ?? {
      v: 1,
      started_at: startedAt(result.serverDate, overview?.structured.recent),
      started_ms: Date.now(),
      root,
      head: repo?.head ?? null,
      dirty: dirty?.fingerprint ?? null,
      project: project ?? null,
      injected: [],
    };
    const injected = [...state.injected, ...chosen.map((c) => c.hit.id)];
    saveState(dir, ctx.session, { ...state, entries: state.entries ?? entries, injected });
  }
  return { context: memoryBlock([HEAD, ...lines]) };
}

/** One hit: who wrote it and when, what it says, why, where from, and whether it may be stale. */
function hitLine(h: Hit): string {
  const at = h.version > 1 ? h.updated_at : h.created_at;
  const parts = [clean(h.content, 500)]; // a plan's content holds its title and steps
  if (h.rationale) parts.push(`Why: ${clean(h.rationale, 240)}`);
  if (h.source) parts.push(`Source: ${clean(h.source, 120)}`);
  if (h.stale) {
    parts.push(`(may be stale: a newer entry on ${clean(h.stale.paths.join(', '), 120)} by ${clean(h.stale.by, 64)})`);
  }
  return `- ${attribution({ kind: h.kind, agent: h.agent, at, id: h.id })} ${parts.join(' ')}`;
}
