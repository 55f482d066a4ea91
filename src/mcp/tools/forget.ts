import { z } from 'zod';
import { Invalid } from '../../domain/errors';
import { forgetInput } from '../../domain/operations';
import { defineTool } from '../tool';

export const forget = defineTool({
  name: 'forget',
  title: 'Forget',
  description:
    "Permanently delete entries or artifact versions by id: any shared (org or project) entry or artifact of the org, whoever wrote it, and your own private ones; never another agent's. The ledger keeps who, when, why and a content hash.",
  input: forgetInput,
  output: z.object({ forgotten: z.array(z.string()), not_found: z.array(z.string()) }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(input, ctx) {
    if ((input.id === undefined) === (input.ids === undefined)) {
      throw new Invalid('id', 'pass exactly one of id or ids');
    }
    const ids = input.ids ?? [input.id as string];
    const r = await ctx.service.forget(ctx.who, { ids, reason: input.reason });
    const parts = [`Forgot ${r.forgotten.length} of ${ids.length}.`];
    if (r.not_found.length) {
      parts.push(
        `Not found, or another agent's private entry: ${r.not_found.join(', ')}. Nothing of those was changed.`,
      );
    }
    return { structured: r, text: parts.join(' ') };
  },
});
