import { z } from 'zod';
import type { Usage } from '../../domain/limits';
import { eventOut, id, isoTime, project, projectOut, scope, text } from '../schemas';
import { defineTool, projectFields, READ } from '../tool';
import { withNotice } from './render';

const VIEWS = ['overview', 'projects', 'agents', 'ledger'] as const;

export const space = defineTool({
  name: 'space',
  title: 'Space',
  description:
    "Look around the org's memory. overview (default): org, your agent identity (and whether it is the shared default), the resolved project, counts per kind, artifacts, stored bytes, quota and recent activity. projects: the org's projects. agents: who has written. ledger: who did what, newest first — filter by entry_id to answer which agent wrote or decided something.",
  input: z.object({
    view: z.enum(VIEWS).default('overview'),
    entry_id: id.optional().describe('ledger: only events of this entry or artifact.'),
    agent: text(1, 128).optional().describe('ledger: only events by this agent.'),
    since: isoTime.optional().describe('ledger: only events at or after this time.'),
    limit: z.number().int().min(1).max(500).default(50).describe('ledger: most events returned.'),
    scope: scope.optional(),
    project: project.optional(),
  }),
  output: z.object({
    view: z.enum(VIEWS),
    caller: z.object({ agent: z.string(), is_default: z.boolean() }),
    ...projectOut,
    org: z.object({ id: z.string(), name: z.string() }).optional(),
    scope: scope.optional(),
    counts: z.record(z.string(), z.number()).optional(),
    artifacts: z.object({ count: z.number(), bytes: z.number() }).optional(),
    stored_bytes: z.number().optional(),
    quota: z
      .object({
        plan: z.string().nullable().describe('null: no plan, nothing limited'),
        requests_per_minute: z.number().nullable().describe('per API key; null: no rate limit'),
        tool_calls_per_month: z.number().nullable(),
        tool_calls_this_month: z.number(),
        resets_at: z.string().describe('when the monthly count starts again'),
        stored_bytes_limit: z.number().nullable(),
        stored_bytes: z.number(),
        artifact_bytes: z.number().nullable(),
        entry_chars: z.number().nullable(),
      })
      .optional(),
    recent: z.array(eventOut).optional(),
    projects: z.array(z.object({ project: z.string(), created_at: z.string(), entries: z.number() })).optional(),
    agents: z
      .array(z.object({ agent: z.string(), events: z.number(), first_at: z.string(), last_at: z.string() }))
      .optional(),
    events: z.array(eventOut).optional(),
  }),
  annotations: READ,
  async handler(input, ctx) {
    const { project: _, ...args } = input;
    const r = (await ctx.service.space(ctx.who, args)) as Record<string, unknown>;
    const caller = { agent: ctx.caller.agent, is_default: ctx.caller.agentIsDefault };
    const p = projectFields(
      ctx.project,
      input.view === 'overview' ? (r.project as string | null) : ctx.project.canonical,
      input.view === 'overview',
    );
    const structured = { view: input.view, caller, ...r, ...p } as Record<string, unknown>;
    return { structured: structured as never, text: withNotice(render(input.view, structured, caller), p.notice) };
  },
});

function render(view: string, r: Record<string, unknown>, caller: { agent: string; is_default: boolean }): string {
  const who = caller.is_default
    ? `You are the shared default agent "${caller.agent}"; send X-Svc-Agent so writes are attributed to you.`
    : `You are agent "${caller.agent}".`;
  if (view === 'ledger') {
    const events = r.events as { seq: number; at: string; agent: string; op: string; entry_id: string | null }[];
    return [who, ...events.map((e) => `#${e.seq} ${e.at} ${e.agent} ${e.op} ${e.entry_id ?? ''}`.trim())].join('\n');
  }
  if (view === 'projects') {
    const ps = r.projects as { project: string; entries: number }[];
    return [who, `${ps.length} project(s):`, ...ps.map((p) => `- ${p.project} (${p.entries} entries)`)].join('\n');
  }
  if (view === 'agents') {
    const as = r.agents as { agent: string; events: number; last_at: string }[];
    return [
      who,
      `${as.length} agent(s):`,
      ...as.map((a) => `- ${a.agent}: ${a.events} events, last ${a.last_at}`),
    ].join('\n');
  }
  const org = r.org as { name: string };
  const counts = Object.entries((r.counts as Record<string, number>) ?? {})
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const a = r.artifacts as { count: number; bytes: number };
  return [
    `Org "${org.name}". ${who}`,
    `Project: ${r.project ?? 'none (org-wide)'}; scope ${r.scope}.`,
    `Entries: ${counts || 'none'}. Artifacts: ${a.count} (${a.bytes} bytes).`,
    quotaLine(r.quota as Usage),
  ].join('\n');
}

function quotaLine(q: Usage): string {
  const of = (used: number, limit: number | null) => (limit === null ? `${used}` : `${used} of ${limit}`);
  const plan = q.plan === null ? 'No plan: nothing is limited.' : `Plan "${q.plan}".`;
  const rate = q.requests_per_minute === null ? '' : ` Rate: ${q.requests_per_minute} requests per minute per key.`;
  return `${plan} Tool calls this month: ${of(q.tool_calls_this_month, q.tool_calls_per_month)} (resets ${q.resets_at}). Stored bytes: ${of(q.stored_bytes, q.stored_bytes_limit)}.${rate}`;
}
