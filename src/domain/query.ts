/**
 * How recall reads a question before it reaches the database (so identically on every database):
 * the other forms of its irregular verbs — English stemming maps "painting" to "paint" but not
 * "went" to "go", so "Where did she go?" also finds "She went to Paris" — the trade's
 * abbreviations and synonyms (vocabulary.ts), and the kinds of entry it asks for.
 */
import type { Kind } from './schemas';
import { evidenceWords, tellingWords, wordsOf } from './terms';
import { vocabularyGroups } from './vocabulary';

const IRREGULAR = `arise arose arisen|awake awoke awoken|bear bore born borne|beat beaten|become became
begin began begun|bend bent|bet|bind bound|bite bit bitten|bleed bled|blow blew blown|break broke broken|breed bred
bring brought|build built|burn burnt|buy bought|catch caught|choose chose chosen|come came|cost|creep crept|cut
deal dealt|dig dug|draw drew drawn|dream dreamt|drink drank drunk|drive drove driven|eat ate eaten
fall fell fallen|feed fed|feel felt|fight fought|find found|flee fled|fly flew flown|forbid forbade forbidden
forget forgot forgotten|forgive forgave forgiven|freeze froze frozen|give gave given|go went gone
grind ground|grow grew grown|hang hung|hear heard|hide hid hidden|hit|hold held|hurt|keep kept|kneel knelt
know knew known|lay laid|lead led|lean leant|leap leapt|learn learnt|leave left|lend lent|let|lie lay lain|light lit
lose lost|make made|mean meant|meet met|pay paid|put|quit|read|ride rode ridden|ring rang rung|rise rose risen
run ran|say said|see saw seen|seek sought|sell sold|send sent|set|shake shook shaken|shine shone|shoot shot
show showed shown|shrink shrank shrunk|shut|sing sang sung|sink sank sunk|sit sat|sleep slept|slide slid
speak spoke spoken|speed sped|spend spent|spin spun|split|spread|spring sprang sprung|stand stood|steal stole stolen|stick stuck
sting stung|stink stank stunk|strike struck|swear swore sworn|sweep swept|swim swam swum|swing swung|take took taken
teach taught|tear tore torn|tell told|think thought|throw threw thrown|understand understood|wake woke woken
wear wore worn|weave wove woven|weep wept|win won|wind wound|write wrote written`;

let forms: Map<string, string[]> | undefined;

/** Each form → the other forms of its verb; built on first use. */
function irregularForms(): Map<string, string[]> {
  if (!forms) {
    forms = new Map();
    for (const group of IRREGULAR.split(/[|\n]/)) {
      const all = group.trim().split(/\s+/);
      for (const f of all) forms.set(f, [...(forms.get(f) ?? []), ...all.filter((x) => x !== f)]);
    }
  }
  return forms;
}

/**
 * What a query brings along besides its own words, weighed below them in recall, grouped by the
 * query word or phrase they stand for (a concept counts once in a score): the other forms of its
 * irregular verbs, and the vocabulary's abbreviations and synonyms.
 */
export function termGroups(query: string): string[][] {
  const words: string[] = query.toLowerCase().match(/[a-z]+/g) ?? [];
  const verbs = words.flatMap((w) => {
    const forms = irregularForms().get(w);
    return forms ? [[w, ...forms]] : [];
  });
  return [...verbs, ...vocabularyGroups(query)];
}

/** The words by which a question asks for the state things are in now. */
const NOW = /\b(now|current\w*|latest|still|today|any ?more|nowadays|these days)\b/;

/** The words by which a question asks for a fix. */
const FIX = /\b(fix\w*|solv\w*|resolv\w*|workaround\w*)\b/;

/** The words by which a question asks for a kind of entry. */
const INTENTS: [RegExp, Kind[]][] = [
  [/\b(why|decid\w*|decision\w*|reason\w*|rationale|chose|choose|chosen|agreed|polic\w*)\b/, ['decision']],
  [
    /\b(fail\w*|error\w*|broke|broken|break\w*|crash\w*|flak\w*|incident\w*|outage\w*|time[ds]? ?out|exception\w*|warning\w*|regress\w*|went wrong|happened)\b/,
    ['observation', 'memory'],
  ],
  [FIX, ['memory', 'decision']],
  [NOW, ['memory', 'decision']],
  [/\bversions?\b/, ['memory', 'decision']],
  [
    /\b(how (do|should|can|to) (we|i|you)|conventions?|guidelines?|standards?|rules?|where (is|are|do|does)|before (touch|chang|edit|modify)\w*)\b/,
    ['memory'],
  ],
  [
    /\b(plans?|planned|roadmap|next steps?|status|progress|done yet|finish\w*|remain\w*|what'?s left|todo|milestones?)\b/,
    ['plan'],
  ],
];

/**
 * The kinds of entry a question asks for, from its words: "why did we…" wants decisions, "what
 * failed…" observations and the memories of their fixes, "how was … fixed?" the fix alone (the
 * failure's own words would otherwise outrank it), "how do we…" or "before touching…" conventions
 * (memories), "is the … done" plans, "which … now" or "what version" the state things are in
 * (memories and decisions, not the events on the way there). Recall weighs those kinds up
 * (cairn_recall_for); a question naming none weighs all alike.
 */
export function kindsAskedFor(query: string): Kind[] {
  const q = query.toLowerCase();
  const kinds = new Set<Kind>();
  for (const [re, ks] of INTENTS) if (re.test(q)) for (const k of ks) kinds.add(k);
  // asked for the fix, a question names the failure only to say which one
  if (FIX.test(q)) kinds.delete('observation');
  return [...kinds];
}

/**
 * The words a kind of entry answers by its form, not its words: a plan shows its status and steps
 * ("status", "progress", "remains"), a decision that it was decided and why ("rationale",
 * "policy"). A memory is its text alone: "rules" asks for one, and only its words speak of them.
 */
const SHOWN_BY_KIND: [RegExp, Kind][] = [
  [/^(status|progress|roadmap|milestones?|todos?|remains?|remaining|finished|done|steps?)$/, 'plan'],
  [/^(rationale|reasons?|why|polic(y|ies)|decided|decisions?|agreed|chose|chosen)$/, 'decision'],
];

/**
 * The kind whose entries speak of a word of the question by their form (`SHOWN_BY_KIND`): a page
 * holding a hit of that kind mentions it, though no hit writes it (recall's note on the words no
 * hit mentions). Whole words only: "status-page" or "roadmap.md" is what an entry must say.
 */
export function kindAskedBy(word: string): Kind | undefined {
  const w = word.toLowerCase();
  return SHOWN_BY_KIND.find(([re]) => re.test(w))?.[1];
}

/**
 * Words a "." follows inside a sentence: titles, months, firms and Latin or English shorthand.
 * Initials ("C. S. Lewis") and words holding a dot ("e.g.", "file.ts.") are told apart by shape.
 */
const ABBREVIATIONS = new Set(
  `mr mrs ms dr prof sr jr st mt rev gen col capt lt sgt hon jan feb mar apr jun jul aug sep sept
  oct nov dec inc ltd co corp bros etc approx incl excl esp misc resp vs cf fig vol est avg dept`.split(/\s+/),
);

/**
 * The sentences of a text: each ends at a "?", "." or "!" followed by a space — a "?" right after
 * a word or a closing mark and outside `code` (not the one of `a ? b : c`), a "." or "!" not after
 * an initial, a word holding a dot or an abbreviation ("C. S. Lewis", "e.g.", "Mrs.", "approx.").
 */
function sentencesOf(text: string): string[] {
  const out: string[] = [];
  let start = 0;
  for (const m of text.matchAll(/[.!?](?=\s)/g)) {
    const before = text.slice(start, m.index);
    if ((before.match(/`/g)?.length ?? 0) % 2 === 1) continue; // inside `code`
    if (m[0] === '?' ? /\s$/.test(before) : !endsSentence(before)) continue;
    out.push(text.slice(start, m.index + 1).trim());
    start = m.index + 1;
  }
  out.push(text.slice(start).trim());
  return out.filter(Boolean);
}

/** Whether a "." or "!" after `before` ends a sentence. */
function endsSentence(before: string): boolean {
  const word = /\S*$/.exec(before)?.[0] ?? '';
  if (/[\d)"'`]$/.test(word)) return true;
  const letters = /\p{L}*$/u.exec(word)?.[0] ?? '';
  if (letters.length < 2 || word.slice(0, -letters.length).includes('.')) return false;
  return !ABBREVIATIONS.has(letters.toLowerCase());
}

/** The most parts a query is ranked in: each is a ranking of its own (cairn_recall_for). */
export const MAX_PARTS = 4;

/**
 * The sentences of a query that hold a telling word, as the parts recall ranks one by one and an
 * entry is scored by its best (cairn_recall_for): a prompt asks in one sentence and frames the
 * question in the others ("I'm about to make some changes in this part of the codebase. Why did
 * the build break? Keep it short."). None when one sentence or none holds a telling word (the
 * query is ranked whole); more than `MAX_PARTS`, joined in runs of neighbours.
 */
export function queryParts(query: string): string[] {
  return splitQuery(query).parts;
}

/** The parts (`queryParts`), and the sentences of no telling word, whose kinds every part asks for too. */
function splitQuery(query: string): { parts: string[]; asks: string } {
  const sentences = sentencesOf(query);
  const telling = sentences.filter((s) => evidenceOf(s).length > 0);
  const asks = sentences.filter((s) => !telling.includes(s)).join(' ');
  if (telling.length < 2) return { parts: [], asks };
  const size = Math.ceil(telling.length / MAX_PARTS);
  const parts: string[] = [];
  for (let i = 0; i < telling.length; i += size) parts.push(telling.slice(i, i + size).join(' '));
  return { parts, asks };
}

/**
 * The words that name a kind of entry, which every entry of the kind holds as words
 * (cairn_entry_vector: "decision decided", "observed", "plan"): they say what is asked for
 * (`kindsAskedFor`), not what about.
 */
const KIND_WORDS = /^(decid\w*|decisions?|observ\w*|plans?|planned|planning)$/i;

/**
 * The words a hit must hold one of: the telling ones, and the vocabulary's phrases with what they
 * stand for; of "what did we decide about the database?" not "decide", or every decision would
 * answer it — unless no other word tells ("what did we decide?").
 */
function evidenceOf(q: string): string[] {
  const all = [...new Set([...evidenceWords(q), ...vocabularyGroups(q).flat()])];
  const subject = all.filter((w) => !KIND_WORDS.test(w));
  return subject.length ? subject : all;
}

/** A query or a part of it as recall ranks it: its words with their groups, the kinds it asks for, its evidence. */
export interface QueryPart {
  query: string;
  groups: string[][];
  prefer_kinds: Kind[];
  evidence?: string[];
  /** asked for the state things are in now: of two entries on it, the later is the current word */
  now?: true;
}

/** A part as recall ranks it; `asks`: the query's sentences of no telling word, whose kinds it asks for too ("… Why?"). */
function partOf(q: string, asks = ''): QueryPart {
  const evidence = evidenceOf(q);
  const asked = asks ? `${q} ${asks}` : q;
  return {
    query: q,
    groups: termGroups(q),
    prefer_kinds: kindsAskedFor(asked),
    ...(evidence.length ? { evidence } : {}),
    ...(NOW.test(asked.toLowerCase()) ? { now: true as const } : {}),
  };
}

/**
 * What recall's ranking takes of a query, for agents and the dashboard alike. `evidence`: the
 * words a hit must hold one of (terms.ts `evidenceWords`), with the vocabulary's phrases and what
 * they stand for (a phrase of the trade tells, even one made of common words: "on my machine";
 * "pg" tells, though too short a word, and an org that never wrote it wrote "PostgreSQL"); none
 * when the query has none, and then every hit counts. `telling`: its telling words as written
 * (terms.ts `tellingWords`), each first in a list of what recall also counts as it, of which
 * recall names those no hit mentions.
 */
export function rankedQuery(query: string): QueryPart & { telling?: string[][]; parts?: QueryPart[] } {
  const q = query.trim();
  const whole = partOf(q);
  // each telling word with what recall also counts as it: an identifier's parts, the rest of a
  // group whose word or phrase holds it
  const telling = tellingWords(q).map((w) => {
    const parts = wordsOf(w);
    const alike = whole.groups.filter(([said = '']) => wordsOf(said).some((x) => parts.includes(x))).flat();
    return [w, ...new Set([...parts, ...alike].filter((x) => x !== w))];
  });
  const { parts, asks } = splitQuery(q);
  return {
    ...whole,
    ...(telling.length ? { telling } : {}),
    ...(parts.length ? { parts: parts.map((p) => partOf(p, asks)) } : {}),
  };
}
