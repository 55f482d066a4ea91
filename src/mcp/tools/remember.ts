import { z } from 'zod';
import { rememberInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const remember = defineTool({
  name: 'remember',
  title: 'Remember',
  description:
    'Store a fact, convention or lesson. Attributed to your agent; scope sets who reads it. Known content in that project and scope returns the existing entry.',
  input: rememberInput,
  output: z.object({ entry: entryOut, deduplicated: z.boolean(), ...projectOut }),
  annotations: { ...WRITE, idempotentHint: true },
  async handler(input, ctx) {
    const { text, ...structured } = await writeEntry('remember', input, ctx, 'Remembered');
    return { structured, text };
  },
});
