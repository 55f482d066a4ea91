/**
 * The session-start hook (startup, resume, clear, compact): one line saying who the agent is, in
 * which project, and how to write back, then the project's brief in the memory block — within
 * CAIRN_BRIEF_BUDGET characters in all (default 6,000; Claude Code keeps 10,000 inline), cut at
 * entry boundaries, each entry checked against the working tree. Two calls run together: the
 * brief, whose items carry their authors, dates and anchors; and the org's overview (its size, for
 * the relevance bar of later prompts, and its latest event, for the session's start). Records the
 * session's start (time, HEAD, uncommitted state) and what was injected.
 */
import { attribution, BLOCK_OVERHEAD, clean, memoryBlock } from './block';
import { AgentError, briefBudget, cacheDir } from './config';
import { dirtyState, findRepo, projectOf } from './git';
import { budget, type HookAnswer, type HookContext, str, warmUp } from './hook-context';
import { callTool } from './mcp';
import { entriesOf } from './relevance';
import { loadState, pruneStates, type SessionState, saveState, startedAt } from './state';
import { changeMarks } from './verify';

/** An item of the brief (a server older than its agent, author, date and anchors gives none of them). */
interface BriefItem {
  id: string;
  kind: string;
  text: string;
  agent?: string;
  at?: string;
  paths?: string[] | null;
  commit?: string | null;
}
interface Brief {
  sections: { section: string; items: BriefItem[] }[];
  left_out: number;
}
const HEADINGS: Record<string, string> = {
  plans: 'Active plans',
  decisions: 'Decisions (current)',
  conventions: 'Conventions and rules',
  failures: 'Recent failures',
  stale: 'May be stale',
};
/** The share of the room asked of the server for the brief's own text: each line gains an attribution here. */
const BRIEF_SHARE = 0.85;

export async function sessionStart(ctx: HookContext): Promise<HookAnswer> {
  const total = briefBudget(ctx.env);
  const repo = await findRepo(ctx.dir, budget(ctx, 500));
  const project = projectOf(ctx.config.project, repo);
  const call = (name: string, args: Record<string, unknown>, onSent?: () => void) =>
    callTool(ctx.config, name, args, { timeoutMs: budget(ctx, 2500), project, onSent });
  const room = total - headerLine(ctx.config.agent ?? 'default', project).length - BLOCK_OVERHEAD;
  const [brief, overview, dirty] = await Promise.all([
    call('space', { view: 'brief', budget_chars: Math.max(500, Math.floor((room - 100) * BRIEF_SHARE)) }, () =>
      warmUp(false),
    ),
    call('space', { view: 'overview', scope: 'org' }).catch(() => undefined),
    repo ? dirtyState(repo.root, budget(ctx, 1000)) : undefined,
  ]);
  if (brief.isError) throw new AgentError(`the brief: ${brief.text.split('\n')[0]}`);
  const found = brief.structured as { brief?: Brief; project?: string | null; caller?: { agent?: string } };
  const agent = ctx.config.agent ?? found.caller?.agent ?? 'default';
  const items = (found.brief?.sections ?? []).flatMap((s) => s.items.map((item) => ({ section: s.section, item })));
  const anchored = items.flatMap(({ item }) => (item.at ? [{ ...item, created_at: item.at }] : []));
  const marks = repo ? await changeMarks(repo.root, anchored, budget(ctx, 600)) : new Map<string, string>();

  const name = found.project ?? project;
  const top = headerLine(agent, name);
  const lines: string[] = [];
  const leftOut = found.brief?.left_out ?? 0;
  // the summary line at its longest: every entry left out
  let used = top.length + 1 + BLOCK_OVERHEAD + summaryLine(name, items.length, items.length + leftOut).length + 1;
  let heading = '';
  const shown: string[] = [];
  for (const { section, item } of items) {
    const mark = marks.get(item.id);
    const text = clean(item.text.replace(/^-\s*/, ''), 600);
    const line = `- ${attribution({ kind: item.kind, agent: item.agent, at: item.at })} ${text}${mark ? ` [${mark}]` : ''}`;
    const head = section !== heading ? `${HEADINGS[section] ?? clean(section, 40)}:` : '';
    const cost = line.length + 1 + (head ? head.length + 1 : 0);
    if (used + cost > total) break;
    if (head) lines.push(head);
    heading = section;
    lines.push(line);
    used += cost;
    shown.push(item.id);
  }
  const summary = items.length
    ? summaryLine(name, shown.length, items.length - shown.length + leftOut)
    : 'The brief is empty: nothing recorded for this project yet.';

  recordSession(ctx, shown, {
    startedAt: startedAt(brief.serverDate, overview?.structured.recent),
    repo: repo && { root: repo.root, head: repo.head, dirty: dirty?.fingerprint ?? null },
    project,
    agent,
    entries: entriesOf(overview?.structured.counts),
  });
  return { context: `${top}\n${memoryBlock([summary, ...lines])}` };
}

function summaryLine(project: string | undefined | null, shown: number, left: number): string {
  const of = project ? `project ${clean(project, 300)}` : 'the org';
  return `Brief of ${of}: ${shown} entries${left ? `, ${left} more left out (recall finds them)` : ''}.`;
}

/** Who the agent is, where, and how it writes back. */
function headerLine(agent: string, project: string | undefined | null): string {
  const where = project ? `in project ${clean(project, 300)}` : 'in no project (the org-wide memory)';
  return (
    `You are agent "${clean(agent, 128)}" ${where}. Cairn is your team's shared memory: ` +
    'record what others will need with the tools of the MCP server `cairn` — decide (a decision and why), ' +
    'remember (a convention or fact, with paths), observe (an outcome, a failure, its fix) — and search it with recall.'
  );
}

/** Records the session: a new one from here, or (resume, compact) the one going on. */
function recordSession(
  ctx: HookContext,
  shown: string[],
  now: {
    startedAt: string;
    repo: { root: string; head: string | null; dirty: string | null } | undefined;
    project: string | undefined;
    agent: string;
    entries: number | undefined;
  },
): void {
  if (!ctx.session) return;
  const dir = cacheDir(ctx.env);
  const source = str(ctx.input.source) ?? 'startup';
  const old = source === 'resume' || source === 'compact' ? loadState(dir, ctx.session) : undefined;
  const state: SessionState = {
    v: 1,
    started_at: old?.started_at ?? now.startedAt,
    started_ms: old?.started_ms ?? Date.now(),
    root: old ? old.root : (now.repo?.root ?? null),
    head: old ? old.head : (now.repo?.head ?? null),
    dirty: old ? old.dirty : (now.repo?.dirty ?? null),
    project: now.project ?? null,
    agent: now.agent,
    entries: now.entries ?? old?.entries,
    // after a compaction the model no longer holds what was injected: it may come again
    injected: source === 'resume' ? [...new Set([...(old?.injected ?? []), ...shown])] : shown,
    stop_done: old?.stop_done,
  };
  pruneStates(dir);
  saveState(dir, ctx.session, state);
}
