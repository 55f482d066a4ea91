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
    const unheld = r.hits.length ? notMentioned(r.unheld, r.semantic) : undefined;
    const found = empty ?? `${count(r.hits.length, 'hit')}:\n${lines.join('\n')}`;
    const text = input.as_of ? `As of ${input.as_of}: ${found}` : found;
    // Claude Code and Codex hand the model the structured result, not the text: an empty one
    // carries the same words in its notice, and so does one that misses some of the question's words
    const note = [unheld, p.notice].filter(Boolean).join(' ') || undefined;
    const notice = [empty, note].filter(Boolean).join(' ') || undefined;
    return {
      structured: { hits: r.hits, scope: r.scope, ...p, ...(notice ? { notice } : {}) },
      text: withNotice(text, note),
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

/** How the note on words no hit mentions begins (bench:recall counts the pages that carry it). */
export const NOT_MENTIONED = 'No hit mentions ';
/** The most of the question's words the note names. */
const NAMED = 8;

/**
 * What a page of hits says when no hit holds some of the question's telling words (recall's
 * `unheld`): the hits are about the question's other words ("DB" found, "staging" not), which the
 * model cannot tell from a list of entries that each share a word with it.
 */
function notMentioned(words: string[], semantic: boolean): string | undefined {
  if (words.length === 0) return undefined;
  const quoted = words.slice(0, NAMED).map((w) => `"${w}"`);
  const more = words.length > NAMED ? ` (nor ${words.length - NAMED} more of the question's words)` : '';
  const list = quoted.length === 1 ? quoted[0] : `${quoted.slice(0, -1).join(', ')} or ${quoted.at(-1)}`;
  const them = words.length === 1 ? 'it' : 'them';
  // a hit may be there as the context of one that matched (its thread of work): found, not matching
  const other = semantic ? "the question's other words or its meaning" : "the question's other words";
  return `${NOT_MENTIONED}${list}${more}, or a synonym or other form of ${them}: these were found by ${other}.`;
}
