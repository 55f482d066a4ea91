import { z } from 'zod';
import { content, entryOut, metadata, project, projectOut, scope, tags } from '../schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const note = defineTool({
  name: 'note',
  title: 'Note',
  description:
    "Keep a working note. Notes are private to the calling agent (scope agent) unless another scope is given; other agents never see an agent's private notes.",
  input: z.object({
    content,
    tags: tags.optional(),
    metadata: metadata.optional(),
    scope: scope.optional().describe('Defaults to agent (private to the caller).'),
    project: project.optional(),
  }),
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('note', input, ctx, 'Noted');
    return { structured, text };
  },
});
