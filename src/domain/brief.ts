/**
 * A project's briefing within a character budget: what an agent should know before starting work.
 * The store gives the candidates of each section (sql/tools/cairn_brief.sql: current plans,
 * decisions, conventions, recent failures and stale plans, newest first); this ranks them, drops
 * near-duplicates, and takes them in turns across sections — two decisions and two conventions for
 * each plan, failure and stale plan — for as long as they fit. The text never exceeds the budget,
 * and the same entries give the same brief.
 */
import { nameText } from './agents';
import { ChosenWords, words } from './brief-words';
import { handleOf } from './ids';
import type { BriefEntry, BriefFullRow, BriefRow, BriefSection } from './operations';
import type { Entry } from './schemas';
import { clip, nextText, planSummary } from './summary';
import { isoTime } from './types';
import { count } from './words';

export interface BriefCandidate {
  section: BriefSection;
  entry: BriefEntry;
  /** The version of the entry's row it was read from (the store's), when known. */
  version?: string | undefined;
}

/** A candidate from the store's whole row, its times as ISO strings. */
export function briefCandidate(r: BriefFullRow): BriefCandidate {
  const [
    section,
    id,
    kind,
    content,
    rationale,
    title,
    status,
    steps,
    tags,
    project,
    agent,
    created,
    updated,
    version,
    stale,
    paths = null,
    commit = null,
  ] = r;
  const entry: BriefEntry = {
    id,
    kind,
    content,
    rationale,
    title,
    status,
    steps,
    tags,
    project,
    agent,
    created_at: isoTime(created),
    updated_at: isoTime(updated),
    stale,
    paths,
    commit,
  };
  return { section, entry, version };
}

/** A line of the brief, with who wrote its entry, when, and what it is anchored to (the agent side checks them). */
export interface BriefItem {
  id: string;
  kind: Entry['kind'];
  text: string;
  agent: string;
  /** When it was written; a plan, when it was last updated. */
  at: string;
  paths: string[] | null;
  commit: string | null;
}

export interface Brief {
  text: string;
  sections: { section: BriefSection; items: BriefItem[] }[];
  chars: number;
  budget_chars: number;
  left_out: number;
}

const ORDER: { section: BriefSection; heading: string; turn: number }[] = [
  { section: 'plans', heading: 'Active plans', turn: 1 },
  { section: 'decisions', heading: 'Decisions (current)', turn: 2 },
  { section: 'conventions', heading: 'Conventions and rules', turn: 2 },
  { section: 'failures', heading: 'Recent failures', turn: 1 },
  { section: 'stale', heading: 'May be stale', turn: 1 },
];

/** Tags that mark a memory as a convention; tagged ones rank before ones only worded as a rule. */
const RULE_TAGS = new Set(['convention', 'conventions', 'style', 'guideline', 'guidelines', 'rule', 'rules', 'policy']);
/** Packing stops when less room than this is left: hardly a line is shorter ("- ", a few words, the agent). */
const SHORTEST_LINE = 24;

const date = (iso: string) => iso.slice(0, 10);

/** Packing runs start to end without a pause, so one index serves every brief. */
const seen = new ChosenWords();

/**
 * One entry as a brief line: shorter than recall's, its id as its handle (the last 8 hex digits,
 * which the tools take in its place: a plan to update, an entry to supersede or forget).
 * Each text is clipped once, to the line's own length (what clipping recall's summary again gave).
 * Without the org-wide mark, which depends on the read (`where`).
 */
function line(c: BriefCandidate, now: number): string {
  const e = c.entry;
  const id = handleOf(e.id);
  if (e.kind === 'plan') {
    const plan = planSummary(e, now);
    const next = nextText(plan);
    const since = c.section === 'stale' ? `, unchanged since ${date(e.updated_at)}` : '';
    return `- ${clip(e.title ?? e.content, 120)} [${plan.status}, ${plan.done}/${plan.total} done${since}]${next} (plan id ${id})`;
  }
  if (c.section === 'stale' && e.stale) {
    // what may contradict it: the next step is to supersede, forget or confirm it
    const m = e.stale;
    return `- ${clip(e.content, 120)} (${nameText(e.agent)}, id ${id}); a newer ${e.kind} on ${m.paths.join(', ')}: "${clip(m.says, 80)}" (${nameText(m.by)}, ${date(m.since)})`;
  }
  const says = clip(e.content, c.section === 'decisions' ? 160 : 200);
  const why = e.rationale ? clip(e.rationale, 120) : '';
  const when = c.section === 'failures' ? `${date(e.created_at)}: ` : '';
  return `- ${when}${says}${why ? ` Why: ${why}` : ''} (${nameText(e.agent)}, id ${id})`;
}

/** A failure that hurt: an incident, an outage, a crash, lost or duplicated data. */
const SEVERE_TAGS = new Set(['incident', 'outage', 'bug', 'regression', 'security']);
const SEVERE =
  /\b(incident|outage|crash\w*|deadlock\w*|broke|broken|regression|oom\w*|panic\w*|data loss|duplicate\w*|corrupt\w*|leak\w*|5xx|5\d\ds)\b|\b(http|status|returned|returns|returning) 5\d\d\b/i;
/** A failure already settled in the same entry, or routine (a lint or format check, a flaky rerun). */
const SETTLED = /\b(fixed|resolved|passed on (a )?rerun|green again|flaky|lint|prettier|format(ting)?)\b/i;

function severity(e: BriefEntry): number {
  const severe = e.tags.some((t) => SEVERE_TAGS.has(t.toLowerCase())) || SEVERE.test(e.content);
  return (severe ? 0 : 1) + (SETTLED.test(e.content) ? 1 : 0);
}

/**
 * Best first within a section: the project's own entries; rule-tagged conventions, severe and
 * unsettled failures, active plans before drafts; then the newest.
 */
function rank(list: Candidate[], project: string | null): Candidate[] {
  // one number, lowest first: another project's or org-wide 8, then what orders the section (an
  // untagged convention 4, a failure's severity 0-2, a draft plan 1), always below 8
  const key = ({ c, d }: Candidate) =>
    (c.entry.project !== null && c.entry.project === project ? 0 : 8) +
    (c.section === 'conventions' && !d.rule ? 4 : 0) +
    (c.section === 'failures' ? d.severity : 0) +
    (c.section === 'plans' && c.entry.status === 'draft' ? 1 : 0);
  const time = (c: BriefCandidate) => (c.entry.kind === 'plan' ? c.entry.updated_at : c.entry.created_at);
  const keyed = list.map((x) => ({ x, k: key(x), t: time(x.c) }));
  keyed.sort((a, b) => a.k - b.k || (b.t < a.t ? -1 : b.t > a.t ? 1 : b.x.c.entry.id < a.x.c.entry.id ? -1 : 1));
  return keyed.map((y) => y.x);
}

/**
 * What packing derives from a candidate's own fields: its line (but a plan's, which reads the
 * clock), its words (made when first needed) and what ranks it within its section. A project's
 * brief shows much the same entries call after call, and deriving them again (clipping, the word
 * scan, the failure patterns) was most of a brief's own time; so the last few thousand are kept,
 * by id, between briefs. A kept one serves a candidate only when every field it was derived from is
 * the same (the whole text compared), so it gives what deriving again would give, whoever asks.
 */
interface Derived {
  section: BriefSection;
  /** The entry as last received, and the version of its row then. */
  entry: BriefEntry;
  version: string | undefined;
  /** The line without the org-wide mark; undefined for a plan. */
  text: string | undefined;
  /** A convention tagged as a rule. */
  rule: boolean;
  /** A failure's severity (0 first). */
  severity: number;
  words: Float64Array | undefined;
  /** Characters it holds (its bound, MEMO_CHARS). */
  chars: number;
}

interface Candidate {
  c: BriefCandidate;
  d: Derived;
}

const MEMO_ENTRIES = 4096;
const MEMO_CHARS = 4_000_000;
const memo = new Map<string, Derived>();
let memoChars = 0;

/** What is kept (tests: the bounds, and briefs with nothing kept). */
export const keptDerivations = {
  count: () => memo.size,
  chars: () => memoChars,
  reads: () => lastCandidates.size,
  clear(): void {
    memo.clear();
    memoChars = 0;
    lastCandidates.clear();
  },
};

/** Characters a kept derivation holds: its entry's texts and its line. */
function charsOf(e: BriefEntry, text: string | undefined): number {
  let n = e.content.length + (e.rationale?.length ?? 0) + (e.title?.length ?? 0) + (text?.length ?? 0);
  for (const step of e.steps ?? []) n += step.text.length;
  return n;
}

function sameDerivation(d: Derived, c: BriefCandidate): boolean {
  const e = c.entry;
  const k = d.entry;
  if (k === e) return d.section === c.section;
  if (
    d.section !== c.section ||
    k.kind !== e.kind ||
    k.content !== e.content ||
    k.rationale !== e.rationale ||
    k.title !== e.title ||
    k.agent !== e.agent ||
    k.created_at !== e.created_at ||
    k.stale?.entry !== e.stale?.entry ||
    k.tags.length !== e.tags.length
  ) {
    return false;
  }
  for (let i = 0; i < k.tags.length; i++) if (k.tags[i] !== e.tags[i]) return false;
  return true;
}

function derive(c: BriefCandidate): Derived {
  const e = c.entry;
  const kept = memo.get(e.id);
  if (kept && sameDerivation(kept, c)) {
    // what it was derived from is the same; the rest of the row (a plan's steps, a time) may not
    // be, so an entry received again is kept as last received, with its version
    if (kept.entry !== e) {
      memoChars -= kept.chars;
      kept.entry = e;
      kept.version = c.version;
      kept.chars = charsOf(e, kept.text);
      memoChars += kept.chars;
      evictOldest();
    }
    return kept;
  }
  const text = e.kind === 'plan' ? undefined : line(c, 0);
  const d: Derived = {
    section: c.section,
    entry: e,
    version: c.version,
    text,
    rule: c.section === 'conventions' && e.tags.some((t) => RULE_TAGS.has(t.toLowerCase())),
    severity: c.section === 'failures' ? severity(e) : 0,
    words: undefined,
    chars: charsOf(e, text),
  };
  if (kept) memoChars -= kept.chars;
  memo.delete(e.id);
  memo.set(e.id, d);
  memoChars += d.chars;
  evictOldest();
  return d;
}

/** What a brief tells the store it holds (id -> row version), and those entries as they are held. */
export interface Held {
  known: Record<string, string>;
  entries: Map<string, BriefEntry>;
}

const LAST_READS = 1024;
/** The ids of each read's last candidates, the oldest read first. */
const lastCandidates = new Map<string, string[]>();

/**
 * The candidates a brief tells the store it holds: those of the last brief of the same read (its
 * key, agent, project and scope) still kept with the version of their row. The store sends an
 * unchanged one as its section and id, and it is read back from the entries taken here, so that
 * what another brief keeps meanwhile does not change what this one was told.
 */
export function heldCandidates(read: string): Held {
  const held: Held = { known: {}, entries: new Map() };
  for (const id of lastCandidates.get(read) ?? []) {
    const d = memo.get(id);
    if (d?.version === undefined) continue;
    held.known[id] = d.version;
    held.entries.set(id, d.entry);
  }
  return held;
}

/** The candidates of the store's rows, those it sent by id read back from what was held. */
export function briefCandidates(rows: BriefRow[], held: Held, read: string): BriefCandidate[] {
  const candidates = rows.map((r): BriefCandidate => {
    if (r.length !== 2) return briefCandidate(r);
    const entry = held.entries.get(r[1]);
    if (!entry) throw new Error(`the store sent brief candidate ${r[1]} by id, which this server did not hold`);
    return { section: r[0], entry, version: held.known[r[1]] };
  });
  lastCandidates.delete(read);
  const ids = candidates.map((c) => c.entry.id);
  lastCandidates.set(read, ids);
  if (lastCandidates.size > LAST_READS) lastCandidates.delete(lastCandidates.keys().next().value as string);
  return candidates;
}

/** Within the bounds again, the oldest kept going first (a Map keeps the order of insertion). */
function evictOldest(): void {
  for (const [id, old] of memo) {
    if (memo.size <= MEMO_ENTRIES && memoChars <= MEMO_CHARS) break;
    memo.delete(id);
    memoChars -= old.chars;
  }
}

export function briefHeader(project: string | null, shown: number, leftOut: number): string {
  const of = project ? `project ${project} (with org-wide entries)` : 'the org';
  const more = leftOut > 0 ? ` ${leftOut} more left out: recall finds them.` : '';
  return `Brief for ${of}: ${count(shown, 'entry', 'entries')}.${more}`;
}

export function packBrief(candidates: BriefCandidate[], budget: number, project: string | null): Brief {
  const derived = candidates.map((c) => ({ c, d: derive(c) }));
  const queues = ORDER.map((o) =>
    rank(
      derived.filter((x) => x.c.section === o.section),
      project,
    ),
  );
  const total = queues.reduce((n, q) => n + q.length, 0);
  const now = Date.now();
  // room for the header at its longest (every count as wide as the number of candidates)
  const room = budget - briefHeader(project, total, total).length;
  const chosen: BriefItem[][] = ORDER.map(() => []);
  seen.clear();
  let used = 0;
  let duplicates = 0;
  // until every queue is empty, or no line could fit in what is left
  for (let progress = true; progress && room - used >= SHORTEST_LINE; ) {
    progress = false;
    ORDER.forEach((o, i) => {
      const queue = queues[i] ?? [];
      for (let taken = 0; taken < o.turn && queue.length; ) {
        const { c, d } = queue.shift() as Candidate;
        progress = true;
        const where = c.entry.project === null && project !== null ? ' [org-wide]' : '';
        const text = `${d.text ?? line(c, now)}${where}`;
        const cost = text.length + 1 + ((chosen[i] ?? []).length === 0 ? o.heading.length + 2 : 0);
        if (used + cost > room) continue;
        d.words ??= words(c.entry);
        if (seen.repeats(d.words)) {
          duplicates++;
          continue;
        }
        used += cost;
        seen.add(d.words);
        const e = c.entry;
        const at = e.kind === 'plan' ? e.updated_at : e.created_at;
        chosen[i]?.push({
          id: e.id,
          kind: e.kind,
          text,
          agent: e.agent,
          at,
          paths: e.paths ?? null,
          commit: e.commit ?? null,
        });
        taken++;
      }
    });
  }
  const sections = ORDER.map((o, i) => ({ section: o.section, items: chosen[i] ?? [] })).filter(
    (s) => s.items.length > 0,
  );
  const shown = sections.reduce((n, s) => n + s.items.length, 0);
  const leftOut = total - shown - duplicates;
  const header = shown
    ? briefHeader(project, shown, leftOut)
    : leftOut
      ? `No entry of the brief fits in ${budget} characters; call again with a larger budget_chars.`
      : `Nothing to brief yet for ${project ? `project ${project}` : 'the org'}: no current plans, decisions, conventions or recent failures. Record them with plan, decide and remember.`;
  const body = sections.flatMap((s) => [
    `${ORDER.find((o) => o.section === s.section)?.heading}:`,
    ...s.items.map((it) => it.text),
  ]);
  const text = [header, ...body].join('\n');
  return { text, sections, chars: text.length, budget_chars: budget, left_out: leftOut };
}
