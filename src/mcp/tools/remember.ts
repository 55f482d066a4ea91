import { z } from 'zod';
import { rememberInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const remember = defineTool({
  name: 'remember',
  title: 'Remember',
  description:
    'Store a fact, lesson or piece of context for later recall by any agent of the org. Storing content that is already remembered in the same project and scope returns the existing entry (deduplicated: true). Pass supersedes with the id of an outdated memory, observation or decision to replace it.',
  input: rememberInput,
  output: z.object({ entry: entryOut, deduplicated: z.boolean(), ...projectOut }),
  annotations: { ...WRITE, idempotentHint: true },
  async handler(input, ctx) {
    const { text, ...structured } = await writeEntry('remember', input, ctx, 'Remembered');
    return { structured, text };
  },
});
