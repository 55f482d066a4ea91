/**
 * `npm run bench:recall`: recall quality through the public MCP tools, on two data sets.
 *
 * CodeRecall dev (coding agents' memory; scripts/coderecall.ts): every org's entries replayed by
 * their agents, its questions asked as their agents in their projects, scored beside a plain BM25
 * baseline (scripts/bm25.ts); writes bench/results/coderecall-<date>.json and its table in
 * BENCHMARKS.md.
 *
 * LoCoMo dev: one `remember` per dialog turn (content "[<session date>] <speaker>: <text>", the turn's dia_id
 * in metadata, one project per conversation), then every question through `recall` in its
 * conversation's project. Reports evidence recall@5/10/25/50 and MRR, overall and per category,
 * and the share of questions with no hit; writes bench/results/recall-<date>.json and the table in
 * BENCHMARKS.md.
 *
 *   DATABASE_URL   Postgres to run on (default: the embedded database in a temporary directory)
 *   --only coderecall|locomo   run one of the two
 *   --verbose      print every CodeRecall question that misses R@5 or is ordered wrongly
 *   --anchors      CodeRecall replayed twice, without and with anchors (each entry written with the
 *                  paths its text names): recall's figures side by side, and where the stale marks
 *                  fall on superseded and current entries (bench/results/anchors-<date>.json, the
 *                  'anchors' section of BENCHMARKS.md); nothing else is measured
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { adminActions } from '../src/admin';
import { type RunningServer, startServer } from '../src/node';
import { writeBenchmarkSection } from './benchmarks-md';
import { bm25Index } from './bm25';
import { type Answer, type BriefCoverage, loadCodeRecall, runCodeRecall } from './coderecall';
import { breakdown, explain, refusals, type Scored, score, table } from './coderecall-score';

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

const today = () => new Date().toISOString().slice(0, 10);
const databaseName = () => (process.env.DATABASE_URL ? 'Postgres' : 'PGlite');
function writeResult(name: string, result: unknown) {
  mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
  writeFileSync(join(ROOT, 'bench', 'results', `${name}-${today()}.json`), `${JSON.stringify(result, null, 2)}\n`);
}

async function codeRecall(server: RunningServer, verbose: boolean) {
  const data = loadCodeRecall(ROOT);
  const started = performance.now();
  const { answers, refused, refusedSupersessions, briefs, briefChars } = await runCodeRecall(server, data);
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  const cairn = answers.map(score);
  const baseline: Scored[] = data.flatMap((org) => {
    const index = bm25Index(org);
    const keyOf = (id: string) => id;
    return org.questions.map((q) => score({ q, org: org.org, idOf: index.idOf, keyOf, hits: index.search(q) }));
  });
  if (verbose) {
    cairn.forEach((s, i) => {
      if (s.r5 < 1 || s.violating.length) console.log(explain(s, answers[i] as Answer));
    });
  }
  const c = breakdown(cairn);
  const b = breakdown(baseline);
  const date = today();
  writeResult('coderecall', {
    date,
    database: databaseName(),
    seconds,
    refused,
    refusedSupersessions,
    cairn: { ...c, questions: cairn },
    brief: briefs,
    bm25: { ...b, questions: baseline },
  });
  const perOrg = Object.entries(c.perOrg)
    .map(([o, s]) => `${o} ${s.MRR} (BM25 ${b.perOrg[o]?.MRR})`)
    .join(', ');
  const refusedLines = [
    ...refusals(refused, 'refused write:'),
    ...refusals(refusedSupersessions, 'sent without its supersedes (the superseded write was refused):'),
  ];
  const md = [
    `Run ${date} on ${databaseName()}, CodeRecall dev (${data.map((o) => o.org).join(', ')}: ${c.overall.questions} questions), lexical recall only; ${seconds} s for replaying and asking; command \`npm run bench:recall\` (\`-- --only coderecall\` for this part alone, \`--verbose\` for the misses); figures in \`bench/results/coderecall-${date}.json\`.`,
    "Every entry is written through its tool by its agent, in its project; every question asked through `recall` (`limit` 10) as its agent in its project. Percentages except MRR; violations and leaks count questions (a must_outrank entry above a relevant one; another agent's note among the hits); text chars: the mean length of the text block `recall` returns. A relevant entry whose write was refused counts as missed. BM25: plain BM25 in the script over the same entries (note visibility only, no project or supersession awareness, superseded versions kept, a plan as its latest revision; content, rationale, source, tags, plan title and steps; k1 1.2, b 0.75, Lucene's English stop words, no stemming).",
    '',
    table(c, b),
    '',
    `MRR per org: ${perOrg}. Text returned by recall: mean ${c.overall.chars} chars, max ${c.overall.chars_max}.`,
    `Refused writes (target 0): ${refused.length}${refusedLines.length ? ':' : '.'}`,
    ...refusedLines.map((l) => `- ${l}`),
  ].join('\n');
  console.log(md);
  const briefMd = briefTable(briefs, briefChars);
  console.log(briefMd);
  writeBenchmarkSection(
    'brief',
    'What a brief holds (npm run bench:recall)',
    `Run ${date} on ${databaseName()}, CodeRecall dev, in the same run as the recall figures: after the replay, each question's agent asks \`space\` view \`brief\` (default budget, 4,000 characters) in the question's project; a question counts when the brief shows at least one of its relevant entries (any), or all of them (all). Per-question figures in \`bench/results/coderecall-${date}.json\` (\`brief\`).\n\n${briefMd}`,
  );
  writeBenchmarkSection('coderecall', "Recall on coding agents' memory (npm run bench:recall)", md);
}

/** CodeRecall without and with anchors: recall side by side, and the stale marks on superseded and current entries. */
async function anchorsRun(server: RunningServer) {
  const date = today();
  const cols = ['R@1', 'R@5', 'MRR', 'all-in-5', 'violations'] as const;
  const row = (name: string, b: ReturnType<typeof breakdown>, cat?: string) => {
    const s = (cat ? b.perCategory[cat] : b.overall) as unknown as Record<string, number>;
    return `| ${name} | ${cols.map((c) => s[c]).join(' | ')} |`;
  };
  const results: Record<string, unknown> = {};
  const recallRows: string[] = [];
  const staleRows: string[] = [];
  for (const set of ['dev', 'dev2']) {
    const data = loadCodeRecall(ROOT, set);
    const plain = breakdown((await runCodeRecall(server, data)).answers.map(score));
    const run = await runCodeRecall(server, data, { anchors: true });
    const anchored = breakdown(run.answers.map(score));
    results[set] = { plain, anchored, stale: run.staleCounts };
    const of = (superseded: boolean, stale: boolean, field: 'entries' | 'disagree' = 'entries') =>
      run.staleCounts
        .filter((c) => c.superseded === superseded && c.stale === stale)
        .reduce((n, c) => n + (c[field] ?? 0), 0);
    recallRows.push(
      row(`${set}, without anchors, all`, plain),
      row(`${set}, with anchors, all`, anchored),
      row(`${set}, without anchors, latest`, plain, 'latest'),
      row(`${set}, with anchors, latest`, anchored, 'latest'),
    );
    staleRows.push(
      `| ${set} | superseded | ${of(true, true)} (${of(true, true, 'disagree')} by its own chain) | ${of(true, false)} |`,
      `| ${set} | current | ${of(false, true)} (${of(false, true, 'disagree')} by its own chain) | ${of(false, false)} |`,
    );
  }
  writeResult('anchors', { date, database: databaseName(), ...results });
  const md = [
    `Run ${date} on ${databaseName()}, CodeRecall dev and dev2; command \`npm run bench:recall -- --anchors\`; figures in \`bench/results/anchors-${date}.json\`. The same replay twice: as published, and with each entry written with the paths its text names (a file with an extension, or a folder written with its trailing /; scripts/coderecall.ts \`pathsIn\`) as \`paths\`.`,
    '',
    `| replay | ${cols.join(' | ')} |`,
    `| --- | ${cols.map(() => '---').join(' | ')} |`,
    ...recallRows,
    '',
    'Where the stale marks fall, over the anchored entries read back (recall by their paths, superseded included, as one agent of the org); "by its own chain": the entry that marks it is in its supersede chain in the data set, so the two really disagree:',
    '',
    '| set | entry | marked stale | not marked |',
    '| --- | --- | --- | --- |',
    ...staleRows,
  ].join('\n');
  console.log(md);
  writeBenchmarkSection('anchors', "Anchors on coding agents' memory (npm run bench:recall -- --anchors)", md);
}

/** Per project: how many of its questions have an answer in the project's brief. */
function briefTable(rows: BriefCoverage[], chars: number[]): string {
  const lines = [
    '| org | project | questions | answer in brief (any) | all answers in brief |',
    '|---|---|---|---|---|',
  ];
  const pct = (n: number, of: number) => `${n} (${Math.round((100 * n) / Math.max(1, of))}%)`;
  const add = (org: string, project: string, rs: BriefCoverage[]) => {
    const any = rs.filter((r) => r.found > 0).length;
    const all = rs.filter((r) => r.found === r.relevant).length;
    lines.push(`| ${org} | ${project} | ${rs.length} | ${pct(any, rs.length)} | ${pct(all, rs.length)} |`);
  };
  for (const [key, rs] of Map.groupBy(rows, (r) => `${r.org}\u0000${r.project ?? ''}`)) {
    const [org = '', project = ''] = key.split('\u0000');
    add(org, project ? (project.split('/').at(-1) ?? project) : 'org-wide', rs);
  }
  add('all', '', rows);
  const byCategory = [...Map.groupBy(rows, (r) => r.category)]
    .map(([c, rs]) => `${c} ${rs.filter((r) => r.found > 0).length}/${rs.length}`)
    .join(', ');
  const max = Math.max(0, ...chars);
  return `${lines.join('\n')}\n\nAnswer in brief by category: ${byCategory}. Brief text: max ${max} chars over ${chars.length} briefs (budget 4000).`;
}

async function locomo(server: RunningServer) {
  const data = JSON.parse(
    readFileSync(join(ROOT, '..', 'shared', 'bench', 'locomo', 'locomo-dev.json'), 'utf8'),
  ) as Conversation[];
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
  const date = today();
  const database = databaseName();
  writeResult('recall', { date, database, seconds, overall, perCategory });

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

async function main() {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      verbose: { type: 'boolean', default: false },
      anchors: { type: 'boolean', default: false },
    },
  });
  if (values.only && !['coderecall', 'locomo'].includes(values.only)) throw new Error('--only coderecall or locomo');
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-recall-'));
  const server = await startServer({ ...process.env, PORT: '0', CAIRN_DATA_DIR: dataDir });
  try {
    if (values.anchors) await anchorsRun(server);
    else {
      if (values.only !== 'locomo') await codeRecall(server, values.verbose);
      if (values.only !== 'coderecall') await locomo(server);
    }
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
