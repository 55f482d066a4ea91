import { z } from 'zod';
import { decideInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const decide = defineTool({
  name: 'decide',
  title: 'Decide',
  description:
    'Record a decision and the reason for it, attributed to the calling agent. Pass supersedes with the id of an earlier decision, or of a memory or observation it replaces (a convention, a workaround): the old entry gets superseded_by and leaves default recall.',
  input: decideInput,
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('decide', input, ctx, 'Decided');
    return { structured, text };
  },
});
