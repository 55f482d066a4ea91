/**
 * `npm run bench:recall`: recall quality on the LoCoMo dev set, through the public MCP tools.
 * One `remember` per dialog turn (content "[<session date>] <speaker>: <text>", the turn's dia_id
 * in metadata, one project per conversation), then every question through `recall` in its
 * conversation's project. Reports evidence recall@5/10/25/50 and MRR, overall and per category,
 * and the share of questions with no hit; writes bench/results/recall-<date>.json and the table in
 * BENCHMARKS.md.
 *
 *   DATABASE_URL   Postgres to run on (default: the embedded database in a temporary directory)
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { adminActions } from '../src/admin';
import { startServer } from '../src/node';
import { writeBenchmarkSection } from './benchmarks-md';

const ROOT = join(import.meta.dirname, '..');
const KS = [5, 10, 25, 50];
const CATEGORIES: Record<number, string> = {
  1: 'multi-hop',
  2: 'temporal',
  3: 'open-domain',
  4: 'single-hop',
  5: 'adversarial',
};

interface Turn {
  speaker: string;
  dia_id: string;
  text: string;
}
interface Conversation {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence: string[]; category: number }[];
}

/** Evidence ids need light cleaning (see the data set's README). */
function evidenceIds(raw: string[], known: Set<string>): string[] {
  const out = new Set<string>();
  for (const part of raw.flatMap((r) => r.split(/[;,\s]+/))) {
    const m = /^D:?(\d+):0*(\d+)$/.exec(part.trim());
    if (m && known.has(`D${m[1]}:${m[2]}`)) out.add(`D${m[1]}:${m[2]}`);
  }
  return [...out];
}

async function main() {
  const data = JSON.parse(
    readFileSync(join(ROOT, '..', 'shared', 'bench', 'locomo', 'locomo-dev.json'), 'utf8'),
  ) as Conversation[];
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-recall-'));
  const server = await startServer({ ...process.env, PORT: '0', CAIRN_DATA_DIR: dataDir });
  const { key } = await adminActions(server.store, 'bench').createOrg('locomo');
  const client = new Client({ name: 'bench-recall', version: '1' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
      requestInit: { headers: { 'X-Svc-Key': key.secret, 'X-Svc-Agent': 'locomo' } },
    }),
  );
  const call = async (name: string, args: Record<string, unknown>) => {
    const r = await client.callTool({ name, arguments: args });
    if (r.isError) throw new Error(`${name}: ${JSON.stringify(r.content)}`);
    return r.structuredContent as Record<string, unknown>;
  };

  interface Row {
    category: number;
    ranks: number[]; // 1-based rank of each evidence turn in the hits, or 0 when absent
  }
  const rows: Row[] = [];
  const started = performance.now();
  for (const conv of data) {
    const project = `/locomo/${conv.sample_id}`;
    const known = new Set<string>();
    for (const [k, v] of Object.entries(conv.conversation)) {
      if (!/^session_\d+$/.test(k)) continue;
      const date = conv.conversation[`${k}_date_time`] as string;
      for (const t of v as Turn[]) {
        known.add(t.dia_id);
        await call('remember', {
          content: `[${date}] ${t.speaker}: ${t.text}`,
          metadata: { dia_id: t.dia_id },
          project,
        });
      }
    }
    for (const q of conv.qa) {
      const evidence = evidenceIds(q.evidence, known);
      if (evidence.length === 0) continue;
      const r = await call('recall', { query: q.question, limit: 50, project });
      const hits = (r.hits as { metadata: { dia_id?: string } }[]).map((h) => h.metadata.dia_id);
      rows.push({ category: q.category, ranks: evidence.map((e) => hits.indexOf(e) + 1) });
    }
  }
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  await client.close();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });

  const summarise = (rs: Row[]) => {
    const pct = (x: number) => Math.round((1000 * x) / Math.max(rs.length, 1)) / 10;
    const recall = (k: number) =>
      pct(rs.reduce((s, r) => s + r.ranks.filter((x) => x > 0 && x <= k).length / r.ranks.length, 0));
    const mrr = pct(
      rs.reduce(
        (s, r) =>
          s + 1 / (Math.min(...r.ranks.map((x) => (x > 0 ? x : Number.POSITIVE_INFINITY))) || Number.POSITIVE_INFINITY),
        0,
      ),
    );
    return {
      questions: rs.length,
      ...Object.fromEntries(KS.map((k) => [`R@${k}`, recall(k)])),
      MRR: mrr,
      no_hit: pct(rs.filter((r) => r.ranks.every((x) => x === 0)).length),
    };
  };
  const overall = summarise(rows);
  const perCategory = Object.fromEntries(
    Object.entries(CATEGORIES).map(([c, name]) => [name, summarise(rows.filter((r) => r.category === Number(c)))]),
  );
  const date = new Date().toISOString().slice(0, 10);
  const database = process.env.DATABASE_URL ? 'Postgres' : 'PGlite';
  const result = { date, database, seconds, overall, perCategory };
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `recall-${date}.json`), `${JSON.stringify(result, null, 2)}\n`);

  const cols = ['questions', ...KS.map((k) => `R@${k}`), 'MRR', 'no_hit'] as const;
  const line = (name: string, s: Record<string, number>) => `| ${name} | ${cols.map((c) => s[c]).join(' | ')} |`;
  const md = [
    `Run ${date} on ${database}, LoCoMo dev (3 conversations), lexical recall only; ${seconds} s for loading and asking; command \`npm run bench:recall\`; figures in \`bench/results/recall-${date}.json\`. Percentages; no_hit = questions whose 50 hits hold no evidence turn.`,
    '',
    `| category | ${cols.join(' | ')} |`,
    `| --- | ${cols.map(() => '---').join(' | ')} |`,
    line('all', overall),
    ...Object.entries(perCategory).map(([n, s]) => line(n, s)),
  ].join('\n');
  console.log(md);
  writeBenchmarkSection('recall', 'Recall quality (npm run bench:recall)', md);
}

await main();
