import { z } from 'zod';
import { recallInput } from '../../domain/operations';
import { hitOut, projectOut, scope } from '../../domain/schemas';
import { defineTool, projectFields, READ } from '../tool';
import { entryLine, withNotice } from './render';

export const recall = defineTool({
  name: 'recall',
  title: 'Recall',
  description:
    "Search the org's memory with a free-text question and get the most relevant entries (memories, observations, plans, decisions, notes), best first. An empty query returns the most recent entries. Superseded and expired entries are left out unless include_superseded is true.",
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
    const lines = r.hits.map((h, i) => `${i + 1}. ${entryLine(h)}`);
    const text = r.hits.length ? `${r.hits.length} hit(s):\n${lines.join('\n')}` : 'No matching entries.';
    return { structured: { hits: r.hits, scope: r.scope, ...p }, text: withNotice(text, p.notice) };
  },
});
