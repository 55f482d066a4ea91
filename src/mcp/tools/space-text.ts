/** The text the model reads of each `space` view; the structured content carries everything. */
import { mixedMark, nameText } from '../../domain/agents';
import type { SpaceFound } from '../../domain/operations';
import type { LedgerEvent } from '../../domain/schemas';
import { clip, summarise } from '../../domain/summary';
import { count } from '../../domain/words';

export interface SpaceView extends SpaceFound {
  view: string;
  project: string | null;
  caller: { agent: string; is_default: boolean; verified: boolean };
}

/** A time as the text gives it: UTC to the minute (the ledger's seq orders events exactly). */
const when = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')}Z`;

/**
 * Who acted in an event: the agent's name (quoted unless it is one plain word, so that no name
 * can pass for what follows it), with its kind when it is not an agent (a dashboard member,
 * named by email, or an operator) and "(verified)" when the agent came from the credential.
 */
const actor = (e: LedgerEvent) =>
  `${nameText(e.agent)}${e.actor_kind && e.actor_kind !== 'agent' ? ` (${e.actor_kind})` : ''}${e.verified ? ' (verified)' : ''}`;

/** The reason an event was given (a forget's), on one line and clipped. */
const reasonText = (e: LedgerEvent) => (e.reason ? `: ${clip(e.reason, 200)}` : '');

/** How many of the latest ledger events the overview's text names. */
const RECENT = 5;

export function spaceText(r: SpaceView): string {
  const who = r.caller.is_default
    ? `You are the shared default agent ${JSON.stringify(r.caller.agent)}; send X-Svc-Agent so writes are attributed to you.`
    : `You are agent ${JSON.stringify(r.caller.agent)}${mixedMark(r.caller.agent)}${r.caller.verified ? ' (your credential says so)' : ''}.`;
  switch (r.view) {
    case 'history':
      return historyText(r.history);
    case 'ledger': {
      const events = r.events ?? [];
      if (!events.length) return `${who}\nNo ledger events match.`;
      return [
        who,
        ...events.map(
          (e) => `#${e.seq} ${when(e.at)} ${actor(e)} ${e.op}${e.entry_id ? ` ${e.entry_id}` : ''}${reasonText(e)}`,
        ),
      ].join('\n');
    }
    case 'projects': {
      const ps = r.projects ?? [];
      return [
        who,
        `${count(ps.length, 'project')}:`,
        ...ps.map((p) => `- ${p.project} (${count(p.entries, 'entry', 'entries')})`),
      ].join('\n');
    }
    case 'agents': {
      const as = r.agents ?? [];
      return [
        who,
        `${count(as.length, 'agent')}:`,
        ...as.map((a) => `- ${nameText(a.agent)}: ${count(a.events, 'event')}, last ${when(a.last_at)}`),
      ].join('\n');
    }
    default:
      return overviewText(r, who);
  }
}

function overviewText(r: SpaceView, who: string): string {
  const counts = Object.entries(r.counts ?? {})
    .map(([k, n]) => `${k}: ${n}`)
    .join(', ');
  const a = r.artifacts ?? { count: 0, bytes: 0 };
  const recent = (r.recent ?? [])
    .slice(0, RECENT)
    .map((e) => `${actor(e)} ${e.op} ${when(e.at)}`)
    .join('; ');
  return [
    `Org "${r.org?.name}". ${who}`,
    `Project: ${r.project ?? 'none (org-wide)'}; scope ${r.scope}.`,
    `Entries: ${counts || 'none'}. Artifacts: ${a.count} (${a.bytes} bytes).`,
    ...(r.quota ? [quotaLine(r.quota)] : []),
    ...(recent ? [`Latest: ${recent}.`] : []),
    'Before starting work: space view brief (plans, decisions, conventions, failures), then recall.',
  ].join('\n');
}

function quotaLine(q: NonNullable<SpaceFound['quota']>): string {
  const of = (used: number, limit: number | null) => (limit === null ? `${used}` : `${used} of ${limit}`);
  const plan = q.plan === null ? 'No plan: nothing is limited.' : `Plan "${q.plan}".`;
  const rate = q.requests_per_minute === null ? '' : ` Rate: ${q.requests_per_minute} requests per minute per key.`;
  return `${plan} Tool calls this month: ${of(q.tool_calls_this_month, q.tool_calls_per_month)} (resets ${q.resets_at}). Stored bytes: ${of(q.stored_bytes, q.stored_bytes_limit)}.${rate}`;
}

/**
 * One entry's history: the entry, its versions, its supersede chain oldest first (each id once;
 * the events then name entries by their place in the chain), the projects that replaced it for
 * themselves only, and its ledger events.
 */
function historyText(h: SpaceFound['history']): string {
  if (!h) return '';
  const e = h.entry;
  const place = new Map(h.chain.map((c, i) => [c.id, i + 1]));
  const lines = [
    `History of ${e.kind} ${e.id} (${nameText(e.agent)}, ${e.scope} scope${e.project ? `, ${e.project}` : ''}): version ${e.version}${e.superseded_by ? ', superseded' : ', current'}.`,
    `Versions: ${h.versions.map((v) => `v${v.version} ${when(v.at)} ${v.op} by ${nameText(v.agent)}`).join('; ') || 'none in the ledger'}.`,
  ];
  if (h.chain.length <= 1) lines.push(`Says: ${summarise(e).says}`);
  if (h.chain.length > 1) {
    lines.push('Supersede chain, oldest first:');
    for (const [i, c] of h.chain.entries()) {
      const mark = c.id === e.id ? ' <- this entry' : ` id ${c.id}`;
      const state = c.superseded_by ? 'superseded' : 'current';
      lines.push(
        `${i + 1}. [${c.kind}, ${state}] ${summarise(c).says} (${nameText(c.agent)}, ${c.created_at.slice(0, 10)})${mark}`,
      );
    }
  } else if (!h.replaced_in.length) {
    lines.push('It supersedes nothing and nothing supersedes it.');
  }
  if (h.replaced_in.length) {
    const by = h.replaced_in.map((r) => `project ${r.project} (by ${r.id})`).join(', ');
    lines.push(`Replaced for ${by} only; current everywhere else.`);
  }
  lines.push(
    'Ledger:',
    ...h.events.map((ev) => {
      const which = ev.entry_id && h.chain.length > 1 ? ` (${place.get(ev.entry_id) ?? '?'})` : '';
      return `#${ev.seq} ${when(ev.at)} ${actor(ev)} ${ev.op}${which}${reasonText(ev)}`;
    }),
  );
  return lines.join('\n');
}
