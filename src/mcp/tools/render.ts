/** Short text renderings of results for the model; the structured content carries everything. */
import { DEFAULT_AGENT, nameText } from '../../domain/agents';
import type { Entry } from '../../domain/schemas';
import { nextText, summarise } from '../../domain/summary';
import { projectFields, type ToolContext } from '../tool';

export function where(e: { scope: string; project: string | null }): string {
  return e.project ? `${e.scope} scope, project ${e.project}` : `${e.scope} scope`;
}

/**
 * One entry as the model reads it: kind, what it says, the rationale / source / plan status with
 * open steps, who wrote it where and when, its id, and what superseded it (by its place in the
 * same list when it is there, so no id is written twice).
 */
export function entryLine(e: Entry, placeOf: (id: string) => number | undefined = () => undefined): string {
  const s = summarise(e);
  const parts = [`[${e.kind}] ${s.says}`];
  if (s.plan) {
    parts.push(`[${s.plan.status}, ${s.plan.done}/${s.plan.total} steps done]${nextText(s.plan)}`);
  }
  if (s.why) parts.push(`Why: ${s.why}`);
  if (s.source) parts.push(`Source: ${s.source}`);
  if (s.stale) parts.push(`(${s.stale}.)`);
  if (e.superseded_by) {
    const at = placeOf(e.superseded_by);
    parts.push(`SUPERSEDED by ${at ? `hit ${at}` : e.superseded_by}.`);
  }
  const date = (e.version > 1 ? e.updated_at : e.created_at).slice(0, 10);
  parts.push(`(${nameText(e.agent)}, ${s.where}, ${date}; id ${e.id})`);
  return parts.join(' ');
}

export function withNotice(text: string, notice: string | undefined): string {
  return notice ? `${text}\nNote: ${notice}` : text;
}

/**
 * A write's notes: the project's, and that it was attributed to the shared `default` agent when
 * the call named no agent (no X-Svc-Agent, an unbound key) — every such client writes as one.
 */
export function writeNotice(ctx: ToolContext, notice: string | undefined, author: string): string | undefined {
  const shared =
    ctx.caller.agentSource === 'default' && author === DEFAULT_AGENT
      ? `written as the shared agent "${DEFAULT_AGENT}", since the call named no agent; send the X-Svc-Agent header with your own name so your writes are yours (and your private notes only yours)`
      : undefined;
  return joinNotes(notice, shared);
}

/**
 * A write's result fields: the project used and the write's notes, as `notice`. Claude Code and
 * Codex hand the model a result's structured content, not its text (docs/design.md, "What the
 * model reads"), so what the text notes must be in the structure too. `more` comes first: a note
 * the text says in its main sentence.
 */
export function writeFields(ctx: ToolContext, used: string | null, author: string, more?: string) {
  const p = projectFields(ctx.project, used);
  const notes = writeNotice(ctx, p.notice, author);
  const notice = joinNotes(more, notes);
  return { fields: { project: p.project, ...(notice ? { notice } : {}) }, notes };
}

const joinNotes = (...notes: (string | undefined)[]) => notes.filter(Boolean).join('\nNote: ') || undefined;
