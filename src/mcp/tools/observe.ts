import { z } from 'zod';
import { content, entryOut, projectOut, text, ttlSeconds, writeOptions } from '../schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const observe = defineTool({
  name: 'observe',
  title: 'Observe',
  description:
    'Record something the agent saw happen (a test result, an error, a user reaction), optionally with where it came from. Observations are recalled like memories.',
  input: z.object({
    content,
    source: text(1, 512).optional().describe('Where the observation came from: a command, URL, file or tool.'),
    ttl_seconds: ttlSeconds.optional(),
    ...writeOptions,
  }),
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('observe', input, ctx, 'Observed');
    return { structured, text };
  },
});
