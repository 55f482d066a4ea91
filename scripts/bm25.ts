/**
 * The plain BM25 baseline for CodeRecall, in process: no service, no project or supersession
 * awareness, only note visibility. Superseded versions stay as their own documents, except plans,
 * which are updated in place (a plan chain is one document holding its latest revision).
 */
import type { CodeEntry, CodeOrg, CodeQuestion, Hit } from './coderecall';

const K1 = 1.2;
const B = 0.75;
/** Lucene's English stop words. */
const STOP = new Set(
  'a an and are as at be but by for if in into is it no not of on or such that the their then there these they this to was will with'.split(
    ' ',
  ),
);
export const KINDS: Record<string, string> = {
  remember: 'memory',
  observe: 'observation',
  decide: 'decision',
  plan: 'plan',
  note: 'note',
};

/** Lower case, split on anything but letters and digits, stop words dropped, no stemming. */
export function tokens(s: string): string[] {
  return s
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((t) => t && !STOP.has(t));
}

/** Everything an entry says: content, rationale, source, tags, plan title and step texts. */
function entryText(e: CodeEntry): string {
  const a = e.args as {
    content?: string;
    rationale?: string;
    source?: string;
    tags?: string[];
    title?: string;
    steps?: { text: string }[];
  };
  return [a.content, a.rationale, a.source, ...(a.tags ?? []), a.title, ...(a.steps ?? []).map((s) => s.text)]
    .filter(Boolean)
    .join(' ');
}

interface Doc {
  hit: Hit;
  tf: Map<string, number>;
  length: number;
}

/** One org's documents, and for each entry key the id of its document (a plan chain shares one). */
export function bm25Index(org: CodeOrg): {
  idOf: (key: string) => string | undefined;
  search: (q: CodeQuestion, limit?: number) => Hit[];
} {
  const docOf = new Map<string, string>();
  const docs = new Map<string, Doc>();
  for (const e of org.entries) {
    const sup = (e.args as { supersedes?: string }).supersedes?.slice(1);
    const id = e.tool === 'plan' && sup ? (docOf.get(sup) ?? e.key) : e.key;
    docOf.set(e.key, id);
    const text = entryText(e);
    const tf = new Map<string, number>();
    const ts = tokens(text);
    for (const t of ts) tf.set(t, (tf.get(t) ?? 0) + 1);
    const hit = { id, kind: KINDS[e.tool] ?? e.tool, agent: e.agent, project: e.project, content: text };
    docs.set(id, { hit, tf, length: ts.length });
  }
  /** The top `limit` documents the question's agent may see, best first (ties in write order). */
  function search(q: CodeQuestion, limit = 10): Hit[] {
    const visible = [...docs.values()].filter((d) => d.hit.kind !== 'note' || d.hit.agent === q.agent);
    const n = visible.length;
    const avgdl = visible.reduce((s, d) => s + d.length, 0) / Math.max(n, 1);
    const terms = [...new Set(tokens(q.query))];
    const idf = new Map(
      terms.map((t) => {
        const df = visible.filter((d) => d.tf.has(t)).length;
        return [t, Math.log(1 + (n - df + 0.5) / (df + 0.5))];
      }),
    );
    const scored = visible.map((d) => {
      let score = 0;
      for (const t of terms) {
        const f = d.tf.get(t) ?? 0;
        if (f) score += ((idf.get(t) ?? 0) * f * (K1 + 1)) / (f + K1 * (1 - B + (B * d.length) / avgdl));
      }
      return { d, score };
    });
    return scored
      .filter((s) => s.score > 0)
      .sort((x, y) => y.score - x.score)
      .slice(0, limit)
      .map((s) => s.d.hit);
  }
  return { idOf: (key) => docOf.get(key), search };
}
