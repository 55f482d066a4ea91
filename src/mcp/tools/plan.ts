import { z } from 'zod';
import { planInput } from '../../domain/operations';
import { entryOut, projectOut } from '../../domain/schemas';
import { defineTool, projectFields, WRITE } from '../tool';
import { where, withNotice } from './render';

export const plan = defineTool({
  name: 'plan',
  title: 'Plan',
  description:
    'Create a plan (title, optional steps and status) or update one (id plus any of title, steps, status). Plan status moves draft → active → done or abandoned (draft → abandoned too); done and abandoned are final. Step status is todo, doing, done or skipped. Each update bumps version.',
  input: planInput,
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
