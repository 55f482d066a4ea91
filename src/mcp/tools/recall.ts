import { z } from 'zod';
import { recallInput } from '../../domain/operations';
import { hitOut, projectOut, scope } from '../../domain/schemas';
import { count } from '../../domain/words';
import { defineTool, projectFields, READ } from '../tool';
import { entryLine, withNotice } from './render';

export const recall = defineTool({
  name: 'recall',
  title: 'Recall',
  description:
    'Search what you can read (shared entries of the org and project, your private ones), best match first. Read-only; use it before a task.',
  input: recallInput,
  output: z.object({
    hits: z.array(hitOut),
    scope,
    ...projectOut,
  }),
  annotations: READ,
  async handler(input, ctx) {
    const { project: _, ...args } = input;
    const r = await ctx.service.recall(ctx.who, args);
    const p = projectFields(ctx.project, r.project, true);
    const place = new Map(r.hits.map((h, i) => [h.id, i + 1]));
    const lines = r.hits.map((h, i) => `${i + 1}. ${entryLine(h, (id) => place.get(id))}`);
    const empty = r.hits.length ? undefined : nothingFound(input, r);
    const found = empty ?? `${count(r.hits.length, 'hit')}:\n${lines.join('\n')}`;
    const text = input.as_of ? `As of ${input.as_of}: ${found}` : found;
    // Claude Code and Codex hand the model the structured result, not the text: an empty one
    // carries the same words in its notice
    const notice = [empty, p.notice].filter(Boolean).join(' ') || undefined;
    return {
      structured: { hits: r.hits, scope: r.scope, ...p, ...(notice ? { notice } : {}) },
      text: withNotice(text, p.notice),
    };
  },
});

const FILTERS = ['kinds', 'tags', 'agent', 'since', 'until', 'paths'] as const;

/**
 * What an empty answer says: where recall looked, through which filters, and what to try next. An
 * empty answer is a good answer (docs/design.md, "Recall"), but the model should not take it for
 * "nothing is known" when other words or a wider scope would have found it.
 */
function nothingFound(
  input: { query: string } & Partial<Record<(typeof FILTERS)[number], unknown>>,
  r: { scope: string; project: string | null; semantic: boolean },
): string {
  const where =
    r.scope === 'agent'
      ? 'among your private entries'
      : r.scope === 'org' || r.project === null
        ? "in the org's shared entries and yours"
        : `in project ${r.project}, the org-wide entries or yours`;
  const filters = FILTERS.filter((f) => input[f] !== undefined);
  const through = filters.length ? ` that pass ${filters.join(', ')}` : '';
  if (input.query.trim() === '') return `No entries ${where}${through}.`;
  const wider = r.scope === 'project' && r.project !== null ? ', or scope "org" to search every project' : '';
  const how = r.semantic
    ? 'Nothing came near the question in words or in meaning'
    : 'Recall matches the words entries use (names, identifiers, paths), not their meaning';
  return `No matching entries ${where}${through}. ${how}: try other words${wider}.`;
}
