import { z } from 'zod';
import { decideInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const decide = defineTool({
  name: 'decide',
  title: 'Decide',
  description: 'Record a decision and why. Attributed to your agent; scope sets who reads it.',
  input: decideInput,
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('decide', input, ctx, 'Decided');
    return { structured, text };
  },
});
