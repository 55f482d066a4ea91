import { z } from 'zod';
import { observeInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const observe = defineTool({
  name: 'observe',
  title: 'Observe',
  description:
    'Record something the agent saw happen (a test result, an error, a user reaction), optionally with where it came from. Observations are recalled like memories; a later memory or decision may supersede one (a workaround replaced by the fix).',
  input: observeInput,
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('observe', input, ctx, 'Observed');
    return { structured, text };
  },
});
