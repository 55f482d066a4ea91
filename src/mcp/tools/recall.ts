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
    const found = r.hits.length ? `${count(r.hits.length, 'hit')}:\n${lines.join('\n')}` : 'No matching entries.';
    const text = input.as_of ? `As of ${input.as_of}: ${found}` : found;
    return { structured: { hits: r.hits, scope: r.scope, ...p }, text: withNotice(text, p.notice) };
  },
});
