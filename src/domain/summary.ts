/**
 * What a reader needs of an entry to act on it, compactly: what it says, and by kind its
 * rationale, its source or its plan's status and open steps; whether it was superseded. The
 * recall tool's text (what most clients show the model) and the dashboard's Memory page both
 * show these fields.
 */
import { nameText } from './agents';
import type { Entry } from './schemas';

export interface EntrySummary {
  /** The content, or a plan's title, on one line and clipped. */
  says: string;
  /** A decision's rationale, clipped. */
  why?: string;
  /** Where an observation came from. */
  source?: string;
  /**
   * A plan: its status, its first steps not yet done or skipped (each `#i text`, clipped), how many
   * more are open beyond those, how many are done.
   */
  plan?: { status: string; open: string[]; more: number; done: number; total: number };
  /** The project's short name (the last part of its canonical id), or "org-wide". */
  where: string;
  /** Why it may no longer hold: a newer entry of its kind on its paths, what it says, by whom, when. */
  stale?: string;
}

const SAYS = 280;
const WHY = 200;
const STEP = 80;
const OPEN_STEPS = 3;

/** Whether a UTF-16 code unit is whitespace as `\s` and `trim` see it. */
function isSpace(c: number): boolean {
  if (c < 0xa0) return c === 32 || (c >= 9 && c <= 13);
  return (
    c === 0xa0 ||
    c === 0x1680 ||
    (c >= 0x2000 && c <= 0x200a) ||
    c === 0x2028 ||
    c === 0x2029 ||
    c === 0x202f ||
    c === 0x205f ||
    c === 0x3000 ||
    c === 0xfeff
  );
}

/**
 * Whitespace that folding changes: any but a space (what `\s` matches, listed: twice as fast as
 * `[^\S ]`), or two spaces.
 */
const IRREGULAR = /[\t-\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]| {2}/;

/**
 * Whitespace folded to single spaces and trimmed, then clipped to `max` characters with an
 * ellipsis: what `s.replace(/\s+/g, ' ').trim()` cut to `max` gives. Written as one scan that
 * stops once `max` is passed: it runs for every line of every answer (a brief clips hundreds of
 * texts), where the regular expression over the text was most of the brief's time. A text with
 * nothing to fold before the cut, what most are, is found so by one regular expression test over
 * its head (a loop over its characters took twice as long) and cut as it is; any other is copied
 * a stretch at a time: words one space apart stay as they are, so a stretch ends only at other
 * whitespace (a line break, two spaces), where one space takes its place.
 */
export function clip(s: string, max: number): string {
  const n = s.length;
  // most texts have nothing to fold before the cut (words one space apart): cut them as they are
  const head = n > max + 2 ? s.slice(0, max + 2) : s;
  if (n > 0 && !isSpace(s.charCodeAt(0)) && !IRREGULAR.test(head) && (head !== s || s.charCodeAt(n - 1) !== 32)) {
    return n > max ? `${s.slice(0, max - 1)}…` : s;
  }
  let i = 0;
  while (i < n && isSpace(s.charCodeAt(i))) i++;
  let out = '';
  while (i < n) {
    const start = i;
    // no further than one character past what `max` keeps: that one says the text goes on
    const stop = Math.min(n, start + max + 1 - out.length);
    while (i < stop) {
      const c = s.charCodeAt(i);
      if (c === 32 ? i + 1 < n && !isSpace(s.charCodeAt(i + 1)) : !isSpace(c)) i++;
      else break;
    }
    out += s.slice(start, i);
    if (out.length > max) return `${out.slice(0, max - 1)}…`;
    while (i < n && isSpace(s.charCodeAt(i))) i++;
    if (i < n) out += ' ';
  }
  return out;
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

/**
 * A plan's status, its first steps not yet done or skipped (numbered by index as the tools take it,
 * clipped, with live claims), how many more are open, how many are done.
 */
export function planSummary(e: Pick<Entry, 'status' | 'steps'>, now = Date.now()): NonNullable<EntrySummary['plan']> {
  const steps = e.steps ?? [];
  const open = steps.map((s, i) => ({ s, i })).filter(({ s }) => s.status === 'todo' || s.status === 'doing');
  return {
    status: e.status ?? 'active',
    open: open.slice(0, OPEN_STEPS).map(({ s, i }) => {
      const held = claimOf(s, now);
      return `#${i} ${clip(`${s.status === 'doing' ? '(doing) ' : ''}${s.text}`, STEP)}${held ? ` [claimed by ${nameText(held.by)} until ${held.until}]` : ''}`;
    }),
    more: Math.max(0, open.length - OPEN_STEPS),
    done: steps.filter((s) => s.status === 'done').length,
    total: steps.length,
  };
}

/** The open steps as a text says them: "#1 a; #2 b; #3 c; +2 more", or '' when none is open. */
export function openSteps(plan: NonNullable<EntrySummary['plan']>): string {
  if (plan.open.length === 0) return '';
  return plan.more > 0 ? `${plan.open.join('; ')}; +${plan.more} more` : plan.open.join('; ');
}

/** " Next: …." after a plan's line, or '' when no step is open. */
export function nextText(plan: NonNullable<EntrySummary['plan']>): string {
  const open = openSteps(plan);
  return open ? ` Next: ${open}.` : '';
}

export function summarise(e: Summarised, now = Date.now()): EntrySummary {
  const out: EntrySummary = {
    says: clip(e.kind === 'plan' ? (e.title ?? e.content) : e.content, SAYS),
    where: e.project ? (e.project.split('/').at(-1) ?? e.project) : 'org-wide',
  };
  if (e.rationale) out.why = clip(e.rationale, WHY);
  if (e.source) out.source = clip(e.source, WHY);
  if (e.stale) {
    const s = e.stale;
    out.stale = `may be stale: a newer ${e.kind} on ${s.paths.join(', ')}: "${clip(s.says, 60)}" — ${nameText(s.by)}, ${s.since.slice(0, 10)}, id ${s.entry}`;
  }
  if (e.kind === 'plan') out.plan = planSummary(e, now);
  return out;
}
