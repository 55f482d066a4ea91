import { z } from 'zod';
import { planInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { nextText, summarise } from '../../domain/summary';
import { defineTool, WRITE } from '../tool';
import { where, withNotice, writeFields } from './render';

export const plan = defineTool({
  name: 'plan',
  title: 'Plan',
  description:
    'Create a plan, or update one by id. Claim a step before working on it. Status: draft → active → done or abandoned, draft → abandoned; done and abandoned are final.',
  input: planInput,
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { project: _, ...args } = input;
    const r = await ctx.service.plan(ctx.who, args);
    const e = r.entry;
    const { fields, notes } = writeFields(ctx, r.project, e.agent);
    const s = summarise(e);
    const head = input.id ? `Updated the plan to version ${e.version}` : `Created plan ${e.id}`;
    const progress = s.plan ? ` ${s.plan.done}/${s.plan.total} steps done.` : '';
    const next = s.plan ? nextText(s.plan) : '';
    return {
      structured: { entry: e, ...fields },
      text: withNotice(`${head}: ${e.title} [${e.status}] (${where(e)}).${progress}${next}`, notes),
    };
  },
});
