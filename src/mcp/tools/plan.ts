import { z } from 'zod';
import { PLAN_STATUSES } from '../../domain/plans';
import { entryOut, id, projectOut, step, text, writeOptions } from '../schemas';
import { defineTool, projectFields, WRITE } from '../tool';
import { where, withNotice } from './render';

export const plan = defineTool({
  name: 'plan',
  title: 'Plan',
  description:
    'Create a plan (title, optional steps and status) or update one (id plus any of title, steps, status). Plan status moves draft → active → done or abandoned (draft → abandoned too); done and abandoned are final. Step status is todo, doing, done or skipped. Each update bumps version.',
  input: z.object({
    id: id.optional().describe('Id of the plan to update; omit to create a plan.'),
    title: text(1, 512).optional().describe('Required when creating.'),
    steps: z
      .array(step)
      .max(100, 'at most 100 steps')
      .optional()
      .describe('The whole list of steps; replaces the current one on update.'),
    status: z.enum(PLAN_STATUSES).optional().describe('A new plan starts active unless draft is given.'),
    ...writeOptions,
  }),
  output: z.object({ entry: entryOut, ...projectOut }),
  annotations: WRITE,
  async handler(input, ctx) {
    const { project: _, ...args } = input;
    const r = await ctx.service.plan(ctx.who, args);
    const p = projectFields(ctx.project, r.project);
    const e = r.entry;
    const verb = input.id ? `Updated plan ${e.id} to version ${e.version}` : `Created plan ${e.id}`;
    return {
      structured: { entry: e, ...p },
      text: withNotice(`${verb}: ${e.title} [${e.status}] (${where(e)}).`, p.notice),
    };
  },
});
