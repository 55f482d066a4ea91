import { z } from 'zod';
import { observeInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const observe = defineTool({
  name: 'observe',
  title: 'Observe',
  description:
    'Record what happened (a test result, an error, a user reaction). Attributed to your agent; scope sets who reads it.',
  input: observeInput,
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('observe', input, ctx, 'Observed');
    return { structured, text };
  },
});
