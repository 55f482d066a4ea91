/**
 * Which of recall's hits fit a prompt well enough to be injected without being asked for
 * (docs/design.md, "The agent side"). Recall ranks by BM25, a sum of the idf of the query's
 * terms an entry holds, and already drops hits under a tenth of the best. Injecting unasked
 * needs more, since a wrong entry costs the model attention on every turn:
 * - a hit must score at least half the best one (the rest are other topics that share a word);
 * - and at least `FLOOR` times the idf of a word found in one entry of the org, so the bar
 *   stands as high in an org of 40 entries as in one of 10,000 (a raw score means more in a
 *   bigger org);
 * - and it must hold more than a third of the prompt's telling words (terms.ts), or three of
 *   them — each as itself, in a longer form, or as a synonym recall used. A hit found through
 *   "thanks" or "look" alone is not about the prompt; nor is one that shares a single word of a
 *   prompt of four: it is about something else that uses the word ("stack" in "the difference
 *   between stack and heap memory", and in "the Grafana Cloud stack"). Three words of a long
 *   prompt in one entry make a topic, however long the prompt.
 */

import { stem, tellingTerms, wordsOf } from '../domain/terms';
import { vocabularyGroups } from '../domain/vocabulary';

export interface Candidate {
  score: number;
  content: string;
  rationale?: string | null;
  title?: string | null;
  source?: string | null;
  tags?: string[];
  paths?: string[] | null;
}

/** The bar, in units of the idf of a word found in one entry of the org. */
export const FLOOR = 1.3;
/** A hit under this share of the best one's score is left out. */
export const RELATIVE = 0.5;
/** The org's size assumed when it is not known (the session-start hook records it). */
export const DEFAULT_ENTRIES = 200;

/** How many entries an org holds, from `space` overview's counts per kind. */
export function entriesOf(counts: unknown): number | undefined {
  if (!counts || typeof counts !== 'object') return undefined;
  let n = 0;
  for (const v of Object.values(counts)) if (typeof v === 'number') n += v;
  return n > 0 ? n : undefined;
}

/** The idf recall gives a word found in one entry of an org of `entries` (cairn_recall_for). */
export function rareWordIdf(entries: number): number {
  const n = Math.max(entries, 2);
  return Math.log(1 + (n - 0.5) / 1.5);
}

/** The hits that fit `prompt`, best first. `entries`: how many entries the org holds, when known. */
export function fittingHits<T extends Candidate>(
  prompt: string,
  hits: T[],
  entries = DEFAULT_ENTRIES,
  { floor, relative } = { floor: FLOOR, relative: RELATIVE },
): T[] {
  const best = hits[0]?.score ?? 0;
  const bar = Math.max(relative * best, floor * rareWordIdf(entries));
  const words = promptWords(prompt);
  if (words.length === 0) return [];
  return hits.filter((h) => {
    if (h.score < bar) return false;
    const held = sharedWords(h, words);
    return held * 3 > words.length || held >= 3;
  });
}

/** One telling word of a prompt (its stem), with the synonyms recall adds for it. */
interface PromptWord {
  /** Undefined for a phrase of the vocabulary made of common words alone ("on my machine"). */
  stem: string | undefined;
  synonyms: string[];
}

/**
 * A prompt's telling words, each with its synonyms (domain/vocabulary.ts); a phrase of the
 * vocabulary counts as the first of its telling words, or as a word of its own when it has none.
 */
function promptWords(prompt: string): PromptWord[] {
  const terms = tellingTerms(prompt);
  if (terms.length === 0) return [];
  const words = new Map<string, PromptWord>(terms.map((t) => [t, { stem: t, synonyms: [] }]));
  for (const [said = '', ...synonyms] of vocabularyGroups(prompt)) {
    const own = wordsOf(said)
      .map(stem)
      .find((w) => words.has(w));
    const word = own === undefined ? { stem: undefined, synonyms: [said] } : (words.get(own) as PromptWord);
    word.synonyms.push(...synonyms);
    if (own === undefined) words.set(said, word);
  }
  return [...words.values()];
}

/** How many of the prompt's words a hit holds: itself, a longer form of it, or a synonym. */
function sharedWords(hit: Candidate, words: PromptWord[]): number {
  const text = [hit.content, hit.rationale, hit.title, hit.source, ...(hit.tags ?? []), ...(hit.paths ?? [])]
    .filter(Boolean)
    .join(' ');
  const all = wordsOf(text);
  const stems = new Set(all.map(stem));
  const lower = ` ${all.join(' ')} `;
  const holds = (t: string) => {
    if (stems.has(t)) return true;
    // a longer form of the same name: "postgres" and "postgresql", "kube" and "kubernetes"
    if (t.length < 6) return false;
    for (const s of stems) if (s.length >= 6 && (s.length > t.length ? s.startsWith(t) : t.startsWith(s))) return true;
    return false;
  };
  return words.filter(
    (w) => (w.stem !== undefined && holds(w.stem)) || w.synonyms.some((s) => lower.includes(` ${s} `)),
  ).length;
}
