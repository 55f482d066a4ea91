import { z } from 'zod';
import { Invalid } from '../../domain/errors';
import { forgetInput } from '../../domain/operations';
import { defineTool } from '../tool';

export const forget = defineTool({
  name: 'forget',
  title: 'Forget',
  description:
    "Permanently delete entries or artifact versions by id: their content and bytes are purged. Any agent of the org may forget any shared entry or artifact (org or project scope), whoever wrote it, and its own private ones; other agents' private entries are out of reach. The ledger keeps who forgot what, when and why, with a hash of the content but not the content.",
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
