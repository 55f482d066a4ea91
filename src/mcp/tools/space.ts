import { z } from 'zod';
import { SPACE_VIEWS, spaceFound, spaceInput } from '../../domain/operations';
import { projectOut } from '../../domain/schemas';
import { defineTool, projectFields, READ } from '../tool';
import { withNotice } from './render';
import { spaceText } from './space-text';

export const space = defineTool({
  name: 'space',
  title: 'Space',
  description:
    "Look around the org's memory. overview (default): org, your agent identity (and whether it is the shared default), the resolved project, counts per kind, artifacts, stored bytes, quota and recent activity. projects: the org's projects. agents: who has written. ledger: who did what, newest first — filter by entry_id to answer which agent wrote or decided something.",
  input: spaceInput,
  output: z.object({
    view: z.enum(SPACE_VIEWS),
    caller: z.object({ agent: z.string(), is_default: z.boolean() }),
    ...projectOut,
    ...spaceFound.shape,
  }),
  annotations: READ,
  async handler(input, ctx) {
    const { project: _, ...args } = input;
    // a brief's budget holds the notice of an unrecognised project too
    const early = projectFields(ctx.project, ctx.project.canonical).notice;
    const reserve = input.view === 'brief' && early ? early.length + 7 : 0;
    const r = await ctx.service.space(ctx.who, { ...args, budget_chars: args.budget_chars - reserve });
    const caller = { agent: ctx.caller.agent, is_default: ctx.caller.agentIsDefault };
    const read = input.view === 'overview' || input.view === 'brief';
    const p = projectFields(ctx.project, read ? (r.project ?? null) : ctx.project.canonical, read);
    // a brief says itself when the project has no entries yet; only the unrecognised one is added
    const notice = input.view === 'brief' ? early : p.notice;
    const { brief, ...found } = r;
    const view = { view: input.view, caller, ...found, ...p };
    if (!brief) return { structured: view, text: withNotice(spaceText(view), notice) };
    const { text: briefText, ...parts } = brief;
    const text = withNotice(briefText, notice);
    return { structured: { ...view, brief: { ...parts, budget_chars: input.budget_chars, chars: text.length } }, text };
  },
});
