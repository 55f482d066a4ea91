/** Scores of CodeRecall answers per question, their summaries, the Markdown table and the misses. */
import type { Answer, Refusal } from './coderecall';

/** One question's result: ranks are 1-based, 0 when the entry is not among the hits. */
export interface Scored {
  id: string;
  org: string;
  category: string;
  query: string;
  relevant: Record<string, number>;
  must_outrank: Record<string, number>;
  violating: string[];
  leaked: string[];
  r1: number;
  r5: number;
  mrr: number;
  all5: number;
  chars?: number;
  hits: string[];
}

/**
 * R@k is the share of relevant entries in the top k, MRR that of the first relevant one. A
 * must_outrank entry that is the same entry as a relevant one (a plan updated in place) is dropped;
 * one ranked above the lowest relevant entry (a missing one counts as infinity) is a violation.
 */
export function score(a: Answer): Scored {
  const ids = a.hits.map((h) => h.id);
  const rank = (key: string) => {
    const id = a.idOf(key);
    return id === undefined ? 0 : ids.indexOf(id) + 1;
  };
  const relevantIds = new Set(a.q.relevant.map(a.idOf));
  const outrank = (a.q.must_outrank ?? []).filter((k) => {
    const id = a.idOf(k);
    return id === undefined || !relevantIds.has(id);
  });
  const ranks = a.q.relevant.map(rank);
  const lowest = Math.max(...ranks.map((r) => (r === 0 ? Number.POSITIVE_INFINITY : r)));
  const within = (k: number) => ranks.filter((r) => r > 0 && r <= k).length / ranks.length;
  const first = Math.min(...ranks.map((r) => (r === 0 ? Number.POSITIVE_INFINITY : r)));
  return {
    id: a.q.id,
    org: a.org,
    category: a.q.category,
    query: a.q.query,
    relevant: Object.fromEntries(a.q.relevant.map((k) => [k, rank(k)])),
    must_outrank: Object.fromEntries(outrank.map((k) => [k, rank(k)])),
    violating: outrank.filter((k) => rank(k) > 0 && rank(k) < lowest),
    leaked: a.hits.filter((h) => h.kind === 'note' && h.agent !== a.q.agent).map((h) => a.keyOf(h.id) ?? h.id),
    r1: within(1),
    r5: within(5),
    mrr: Number.isFinite(first) ? 1 / first : 0,
    all5: within(5) === 1 ? 1 : 0,
    ...(a.chars === undefined ? {} : { chars: a.chars }),
    hits: a.hits.map((h) => a.keyOf(h.id) ?? h.id),
  };
}

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

export function summarise(rows: Scored[]) {
  const n = Math.max(rows.length, 1);
  const mean = (f: (r: Scored) => number) => rows.reduce((s, r) => s + f(r), 0) / n;
  const chars = rows.flatMap((r) => (r.chars === undefined ? [] : [r.chars]));
  return {
    questions: rows.length,
    'R@1': round(100 * mean((r) => r.r1), 1),
    'R@5': round(100 * mean((r) => r.r5), 1),
    MRR: round(
      mean((r) => r.mrr),
      3,
    ),
    'all-in-5': round(100 * mean((r) => r.all5), 1),
    violations: rows.filter((r) => r.violating.length > 0).length,
    leaks: rows.filter((r) => r.leaked.length > 0).length,
    ...(chars.length
      ? { chars: Math.round(chars.reduce((s, c) => s + c, 0) / chars.length), chars_max: Math.max(...chars) }
      : {}),
  };
}
export type Summary = ReturnType<typeof summarise>;

/** Overall, per category (in the data's order) and per org. */
export function breakdown(rows: Scored[]) {
  const by = (f: (r: Scored) => string) =>
    Object.fromEntries([...new Set(rows.map(f))].map((v) => [v, summarise(rows.filter((r) => f(r) === v))]));
  return { overall: summarise(rows), perCategory: by((r) => r.category), perOrg: by((r) => r.org) };
}

const COLS = ['questions', 'R@1', 'R@5', 'MRR', 'all-in-5', 'violations', 'leaks'] as const;

/** The service and the baseline side by side: all, then each category. */
export function table(cairn: ReturnType<typeof breakdown>, bm25: ReturnType<typeof breakdown>): string {
  const line = (name: string, c: Summary, b: Summary | undefined) =>
    `| ${name} | ${COLS.map((k) => c[k]).join(' | ')} | ${c.chars ?? '-'} | ${COLS.slice(1)
      .map((k) => b?.[k] ?? '-')
      .join(' | ')} |`;
  const head = [...COLS, 'text chars', ...COLS.slice(1).map((k) => `BM25 ${k}`)];
  return [
    `| category | ${head.join(' | ')} |`,
    `| --- | ${head.map(() => '---').join(' | ')} |`,
    line('all', cairn.overall, bm25.overall),
    ...Object.entries(cairn.perCategory).map(([k, c]) => line(k, c, bm25.perCategory[k])),
  ].join('\n');
}

/** One row per org, the service beside the baseline, with the share of no-answer prompts that got a hit. */
export function orgTable(
  rows: { org: string; set: string; cairn: Summary; bm25?: Summary | undefined; padded?: string | undefined }[],
): string {
  const cols = ['questions', 'R@1', 'R@5', 'MRR', 'all-in-5', 'violations', 'leaks'] as const;
  return [
    `| org | set | ${cols.join(' | ')} | BM25 R@5 | BM25 MRR | no-answer prompts with a hit |`,
    `| --- | --- | ${cols.map(() => '---').join(' | ')} | --- | --- | --- |`,
    ...rows.map(
      (r) =>
        `| ${r.org} | ${r.set} | ${cols.map((k) => r.cairn[k]).join(' | ')} | ${r.bm25?.['R@5'] ?? '-'} | ${r.bm25?.MRR ?? '-'} | ${r.padded ?? '-'} |`,
    ),
  ].join('\n');
}

/** Refused writes grouped by tool and error text. */
export function refusals(refused: Refusal[], label: string): string[] {
  const groups = new Map<string, string[]>();
  for (const r of refused) {
    const g = `${r.tool}: ${r.error.replace(/[0-9a-f]{8}-[0-9a-f-]{27}/g, '<id>')}`;
    groups.set(g, [...(groups.get(g) ?? []), `${r.org}/${r.key}`]);
  }
  return [...groups].map(([g, keys]) => `${label} ${keys.length}× ${g} (${keys.join(', ')})`);
}

const shortProject = (p: string | null) => (p ? (/([^/:]+?)(\.git)?$/.exec(p)?.[1] ?? p) : 'org-wide');

/** A question missing R@5 or ordered wrongly: the expected keys with their ranks, and the top 5. */
export function explain(s: Scored, a: Answer): string {
  const ranks = (m: Record<string, number>) =>
    Object.entries(m)
      .map(([k, r]) => `${k}@${r || '-'}`)
      .join(' ');
  const top = a.hits.slice(0, 5).map((h, i) => {
    const text = h.content.replace(/\s+/g, ' ').slice(0, 80);
    return `    ${i + 1}. ${a.keyOf(h.id) ?? h.id} [${h.kind}, ${shortProject(h.project)}] ${text}`;
  });
  const outrank = Object.keys(s.must_outrank).length ? `; must outrank ${ranks(s.must_outrank)}` : '';
  return [
    `${s.id} [${s.category}] "${s.query}" (asked in ${shortProject(a.q.project)})`,
    `  relevant ${ranks(s.relevant)}${outrank}${s.violating.length ? ` — violated by ${s.violating.join(', ')}` : ''}`,
    ...top,
  ].join('\n');
}
