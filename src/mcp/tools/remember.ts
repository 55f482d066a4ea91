import { z } from 'zod';
import { content, entryOut, id, projectOut, ttlSeconds, writeOptions } from '../schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const remember = defineTool({
  name: 'remember',
  title: 'Remember',
  description:
    'Store a fact, lesson or piece of context for later recall by any agent of the org. Storing content that is already remembered in the same project and scope returns the existing entry (deduplicated: true). Pass supersedes to replace an outdated memory.',
  input: z.object({
    content,
    supersedes: id.optional().describe('Id of a memory this one replaces; the old one leaves default recall.'),
    ttl_seconds: ttlSeconds.optional(),
    ...writeOptions,
  }),
  output: z.object({ entry: entryOut, deduplicated: z.boolean(), ...projectOut }),
  annotations: { ...WRITE, idempotentHint: true },
  async handler(input, ctx) {
    const { text, ...structured } = await writeEntry('remember', input, ctx, 'Remembered');
    return { structured, text };
  },
});
