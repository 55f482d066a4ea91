import { z } from 'zod';
import { SPACE_VIEWS, type SpaceFound, spaceFound, spaceInput } from '../../domain/operations';
import { projectOut } from '../../domain/schemas';
import { defineTool, projectFields, READ } from '../tool';
import { withNotice } from './render';

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
    const r = await ctx.service.space(ctx.who, args);
    const caller = { agent: ctx.caller.agent, is_default: ctx.caller.agentIsDefault };
    const overview = input.view === 'overview';
    const p = projectFields(ctx.project, overview ? (r.project ?? null) : ctx.project.canonical, overview);
    const structured = { view: input.view, caller, ...r, ...p };
    return { structured, text: withNotice(render(input.view, structured, caller), p.notice) };
  },
});

function render(
  view: string,
  r: SpaceFound & { project: string | null },
  caller: { agent: string; is_default: boolean },
) {
  const who = caller.is_default
    ? `You are the shared default agent "${caller.agent}"; send X-Svc-Agent so writes are attributed to you.`
    : `You are agent "${caller.agent}".`;
  if (view === 'ledger') {
    const events = r.events ?? [];
    return [who, ...events.map((e) => `#${e.seq} ${e.at} ${e.agent} ${e.op} ${e.entry_id ?? ''}`.trim())].join('\n');
  }
  if (view === 'projects') {
    const ps = r.projects ?? [];
    return [who, `${ps.length} project(s):`, ...ps.map((p) => `- ${p.project} (${p.entries} entries)`)].join('\n');
  }
  if (view === 'agents') {
    const as = r.agents ?? [];
    return [
      who,
      `${as.length} agent(s):`,
      ...as.map((a) => `- ${a.agent}: ${a.events} events, last ${a.last_at}`),
    ].join('\n');
  }
  const counts = Object.entries(r.counts ?? {})
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const a = r.artifacts ?? { count: 0, bytes: 0 };
  return [
    `Org "${r.org?.name}". ${who}`,
    `Project: ${r.project ?? 'none (org-wide)'}; scope ${r.scope}.`,
    `Entries: ${counts || 'none'}. Artifacts: ${a.count} (${a.bytes} bytes).`,
    ...(r.quota ? [quotaLine(r.quota)] : []),
  ].join('\n');
}

function quotaLine(q: NonNullable<SpaceFound['quota']>): string {
  const of = (used: number, limit: number | null) => (limit === null ? `${used}` : `${used} of ${limit}`);
  const plan = q.plan === null ? 'No plan: nothing is limited.' : `Plan "${q.plan}".`;
  const rate = q.requests_per_minute === null ? '' : ` Rate: ${q.requests_per_minute} requests per minute per key.`;
  return `${plan} Tool calls this month: ${of(q.tool_calls_this_month, q.tool_calls_per_month)} (resets ${q.resets_at}). Stored bytes: ${of(q.stored_bytes, q.stored_bytes_limit)}.${rate}`;
}
