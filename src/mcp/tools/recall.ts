import { z } from 'zod';
import { entryOut, isoTime, kind, project, projectOut, scope, tags, text } from '../schemas';
import { defineTool, projectFields, READ } from '../tool';
import { entryLine, withNotice } from './render';

export const recall = defineTool({
  name: 'recall',
  title: 'Recall',
  description:
    "Search the org's memory with a free-text question and get the most relevant entries (memories, observations, plans, decisions, notes), best first. An empty query returns the most recent entries. Superseded and expired entries are left out unless include_superseded is true.",
  input: z.object({
    query: z
      .union([z.literal(''), text(1, 4096)])
      .describe('A free-text question or keywords; empty for the most recent entries.'),
    kinds: z.array(kind).max(5).optional().describe('Only these kinds.'),
    tags: tags.optional().describe('Only entries with at least one of these tags.'),
    agent: text(1, 128).optional().describe('Only entries written by this agent.'),
    since: isoTime.optional().describe('Only entries created at or after this time.'),
    until: isoTime.optional().describe('Only entries created before this time.'),
    limit: z.number().int().min(1).max(100).default(10),
    include_superseded: z.boolean().default(false),
    scope: scope
      .optional()
      .describe(
        'project (default when a project resolves): the project plus org-wide entries; org: every shared entry; agent: only your private entries.',
      ),
    project: project.optional(),
  }),
  output: z.object({
    hits: z.array(entryOut.extend({ score: z.number() })),
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
