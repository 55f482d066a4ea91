import { z } from 'zod';
import { content, entryOut, metadata, project, projectOut, scope, tags, text, ttlSeconds } from '../schemas';
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
    tags: tags.optional(),
    ttl_seconds: ttlSeconds.optional(),
    metadata: metadata.optional(),
    scope: scope.optional(),
    project: project.optional(),
  }),
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('observe', input, ctx, 'Observed');
    return { structured, text };
  },
});
