import { z } from 'zod';
import { nameText } from '../../domain/agents';
import { Invalid } from '../../domain/errors';
import { type ForgetEvent, forgetInput } from '../../domain/operations';
import { clip } from '../../domain/summary';
import { defineTool } from '../tool';

export const forget = defineTool({
  name: 'forget',
  title: 'Forget',
  description:
    'Permanently delete entries or artifact versions by id: any shared entry or artifact of the org, whoever wrote it, and your own private ones. The ledger keeps who, when, why and a content hash.',
  input: forgetInput,
  output: z.object({
    forgotten: z.array(z.string()),
    not_found: z.array(z.string()),
    forgotten_before: z.array(
      z.object({
        id: z.string(),
        by: z.string(),
        actor_kind: z.string().nullable(),
        at: z.string(),
        reason: z.string().nullable(),
      }),
    ),
  }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async handler(input, ctx) {
    if ((input.id === undefined) === (input.ids === undefined)) {
      throw new Invalid('id', 'pass exactly one of id or ids');
    }
    const ids = input.ids ?? [input.id as string];
    const r = await ctx.service.forget(ctx.who, { ids, reason: input.reason, field: input.ids ? 'ids' : 'id' });
    const parts = [`Forgot ${r.forgotten.length} of ${ids.length}.`];
    for (const f of r.forgotten_before) parts.push(`${f.id} was already ${forgottenBy(f)}.`);
    const before = new Set(r.forgotten_before.map((f) => f.id));
    const unknown = r.not_found.filter((id) => !before.has(id));
    if (unknown.length) {
      parts.push(`Not found, or another agent's private entry: ${unknown.join(', ')}. Nothing of those was changed.`);
    }
    return { structured: r, text: parts.join(' ') };
  },
});

/** "forgotten by agent-b at 2026-11-27 09:12Z: moved to the wiki", as the ledger keeps it. */
function forgottenBy(f: ForgetEvent): string {
  const kind = f.actor_kind === 'member' || f.actor_kind === 'operator' ? ` (${f.actor_kind})` : '';
  const why = f.reason ? `: ${clip(f.reason, 200)}` : ' (no reason given)';
  return `forgotten by ${nameText(f.by)}${kind} at ${f.at.slice(0, 16).replace('T', ' ')}Z${why}`;
}
