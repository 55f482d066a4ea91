import { z } from 'zod';
import { MAX_CONTENT } from '../../domain/limits';
import { content, entryOut, id, projectOut, text, writeOptions } from '../schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const decide = defineTool({
  name: 'decide',
  title: 'Decide',
  description:
    'Record a decision and the reason for it, attributed to the calling agent. Pass supersedes with the id of an earlier decision to replace it: the old decision gets superseded_by and leaves default recall.',
  input: z.object({
    content: content.describe('The decision.'),
    rationale: text(1, MAX_CONTENT).describe('Why it was decided.'),
    supersedes: id.optional().describe('Id of an earlier decision this one replaces.'),
    ...writeOptions,
  }),
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('decide', input, ctx, 'Decided');
    return { structured, text };
  },
});
