/**
 * What a reader needs of an entry to act on it, compactly: what it says, and by kind its
 * rationale, its source or its plan's status and open steps; whether it was superseded. The
 * recall tool's text (what most clients show the model) and the dashboard's Memory page both
 * show these fields.
 */
import type { Entry } from './schemas';

export interface EntrySummary {
  /** The content, or a plan's title, on one line and clipped. */
  says: string;
  /** A decision's rationale, clipped. */
  why?: string;
  /** Where an observation came from. */
  source?: string;
  /** A plan: its status, its steps not yet done or skipped (clipped), how many are done. */
  plan?: { status: string; open: string[]; done: number; total: number };
  /** The project's short name (the last part of its canonical id), or "org-wide". */
  where: string;
  /** Why it may no longer hold: which of its paths a newer entry changed, in which, by whom, when. */
  stale?: string;
}

const SAYS = 280;
const WHY = 200;
const STEP = 80;
const OPEN_STEPS = 3;

/**
 * Whitespace folded to single spaces, then clipped to `max` characters with an ellipsis. Only a
 * prefix of a long text is folded (twice as long as needed, longer if it was mostly whitespace):
 * the folded prefix agrees with the folded whole up to its last character.
 */
export function clip(s: string, max: number): string {
  for (let take = 2 * max + 16; ; take *= 2) {
    const whole = take >= s.length;
    const one = (whole ? s : s.slice(0, take)).replace(/\s+/g, ' ').trim();
    if (one.length > max) return `${one.slice(0, max - 1)}…`;
    if (whole) return one;
  }
}

/** A step's claim, if it still holds at `now` (a claim expires by itself). */
export function claimOf(
  s: { claimed_by?: string; claim_expires_at?: string },
  now: number,
): { by: string; until: string } | null {
  if (!s.claimed_by || !s.claim_expires_at) return null;
  const until = Date.parse(s.claim_expires_at);
  return until > now ? { by: s.claimed_by, until: `${s.claim_expires_at.slice(0, 16).replace('T', ' ')} UTC` } : null;
}

/** What a summary reads of an entry (a brief's candidates carry no source or stale mark). */
export type Summarised = Pick<Entry, 'kind' | 'title' | 'content' | 'project' | 'rationale' | 'status' | 'steps'> &
  Partial<Pick<Entry, 'source' | 'stale'>>;

export function summarise(e: Summarised, now = Date.now()): EntrySummary {
  const out: EntrySummary = {
    says: clip(e.kind === 'plan' ? (e.title ?? e.content) : e.content, SAYS),
    where: e.project ? (e.project.split('/').at(-1) ?? e.project) : 'org-wide',
  };
  if (e.rationale) out.why = clip(e.rationale, WHY);
  if (e.source) out.source = clip(e.source, WHY);
  if (e.stale) {
    out.stale = `may be stale: ${e.stale.paths.join(', ')} changed in ${e.stale.entry} by ${e.stale.by} on ${e.stale.since.slice(0, 10)}`;
  }
  if (e.kind === 'plan') {
    const steps = e.steps ?? [];
    out.plan = {
      status: e.status ?? 'active',
      open: steps
        .map((s, i) => ({ s, i }))
        .filter(({ s }) => s.status === 'todo' || s.status === 'doing')
        .slice(0, OPEN_STEPS)
        .map(({ s, i }) => {
          const held = claimOf(s, now);
          return `${clip(`${s.status === 'doing' ? '(doing) ' : ''}${s.text}`, STEP)}${held ? ` [step ${i} claimed by ${held.by} until ${held.until}]` : ''}`;
        }),
      done: steps.filter((s) => s.status === 'done').length,
      total: steps.length,
    };
  }
  return out;
}
