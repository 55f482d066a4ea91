import { z } from 'zod';
import { noteInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, WRITE } from '../tool';
import { writeEntry } from './write';

export const note = defineTool({
  name: 'note',
  title: 'Note',
  description: 'Keep a working note, private to you unless scope says otherwise.',
  input: noteInput,
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { text, deduplicated: _, ...structured } = await writeEntry('note', input, ctx, 'Noted');
    return { structured, text };
  },
});
