/** Short text renderings of results for the model; the structured content carries everything. */
import type { Entry } from '../../domain/schemas';

const MAX_PREVIEW = 280;

export function preview(s: string): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > MAX_PREVIEW ? `${one.slice(0, MAX_PREVIEW)}…` : one;
}

export function where(e: { scope: string; project: string | null }): string {
  return e.project ? `${e.scope} scope, project ${e.project}` : `${e.scope} scope`;
}

export function entryLine(e: Entry): string {
  const head = e.kind === 'plan' ? `${e.title} [${e.status}]` : preview(e.content);
  return `[${e.kind}] ${head} (id ${e.id}, by ${e.agent}, ${e.created_at.slice(0, 10)})`;
}

export function withNotice(text: string, notice: string | undefined): string {
  return notice ? `${text}\nNote: ${notice}` : text;
}
