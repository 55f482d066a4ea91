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
    "Look around; read-only. view overview (default): org, your agent identity, project, counts, quota, recent activity; projects; agents; ledger: who did what, newest first (with entry_id: who wrote or decided it); brief: what to know before starting work in this project: conventions, current decisions with rationale, active plans with open and claimed steps, recent failures, stale warnings, within budget_chars; history: one entry's versions, supersede chain both ways and ledger events; needs entry_id.",
  input: spaceInput,
  output: z.object({
    view: z.enum(SPACE_VIEWS),
    caller: z.object({ agent: z.string(), is_default: z.boolean(), verified: z.boolean() }),
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
    // the agent as the database resolved it: a key bound to an agent acts as that agent
    const caller = {
      agent: r.caller.agent,
      is_default: ctx.caller.agentSource === 'default' && !r.caller.verified,
      verified: r.caller.verified,
    };
    const read = input.view === 'overview' || input.view === 'brief';
    const p = projectFields(ctx.project, read ? (r.project ?? null) : ctx.project.canonical, read);
    // a brief says itself when the project has no entries yet; only the unrecognised one is added
    const notice = input.view === 'brief' ? early : p.notice;
    const { brief, caller: _caller, ...found } = r;
    const recognised = input.view === 'overview' ? { project_recognised: ctx.project.recognised } : {};
    const view = { view: input.view, caller, ...found, ...recognised, ...p };
    if (!brief) return { structured: view, text: withNotice(spaceText(view), notice) };
    const { text: briefText, ...parts } = brief;
    const text = withNotice(briefText, notice);
    return { structured: { ...view, brief: { ...parts, budget_chars: input.budget_chars, chars: text.length } }, text };
  },
});
