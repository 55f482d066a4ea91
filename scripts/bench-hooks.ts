/**
 * `npm run bench:hooks`: the hooks of `cairn` as Claude Code runs them (issue 40, points 7 and 9),
 * against a server started here (src/node startServer, the embedded database), the command run as
 * built (`node bin/cairn.js hook EVENT`, this process's Node: `cairn connect` writes its own
 * process.execPath into the hooks, and the project needs Node 22).
 *   Latency (hooks/latency.ts): spawn to exit, the org at 10,000 entries.
 *   Delivery (hooks/delivery.ts): on CodeRecall dev, dev2 and probes, how often the session-start and
 *   user-prompt hooks put a question's answer in front of the model, how much the prompt hook
 *   injects, and how often it injects anything for bench/prompts/no-answer.json's 80 prompts.
 * Writes bench/results/hooks-<date>.json and the 'hooks' section of BENCHMARKS.md.
 *   --only latency|delivery   one part (prints; writes nothing unless --out)
 *   --in-process              the delivery's hooks run in this process (to tune relevance.ts fast;
 *                             the figures written are always the processes')
 *   --framed                  every question and no-answer prompt inside a request's words
 *                             (scripts/coderecall.ts `framed`), as a user's prompt holds it (prints)
 *   --rounds N                latency rounds (default 100)
 *   --out FILE                the JSON to FILE, and BENCHMARKS.md left alone
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../src/node/node';
import { writeBenchmarkSection } from './benchmarks-md';
import { framedQuestions, loadCodeRecall, noAnswerPrompts } from './coderecall';
import { type Asked, delivery } from './hooks/delivery';
import { latency } from './hooks/latency';
import { stopLauncher } from './hooks/run-hook';

const ROOT = join(import.meta.dirname, '..');
const { values: flags } = parseArgs({
  options: {
    only: { type: 'string' },
    'in-process': { type: 'boolean', default: false },
    framed: { type: 'boolean', default: false },
    rounds: { type: 'string', default: '100' },
    out: { type: 'string' },
  },
});
if (Number(process.versions.node.split('.')[0]) < 22) throw new Error('run it with Node 22: npm run bench:hooks');
const log = (line: string) => console.log(line);
const noAnswer = noAnswerPrompts(ROOT, flags.framed);
const HALF = noAnswer.length / 2;

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)} %` : '—');

function deliverySummary(asked: Asked[]) {
  const questions = (set?: string) => asked.filter((a) => a.category !== 'no-answer' && (!set || a.set === set));
  const row = (qs: Asked[]) => {
    const chars = qs.map((a) => a.promptChars);
    const injecting = chars.filter((c) => c > 0);
    return {
      questions: qs.length,
      brief: qs.filter((a) => a.brief).length,
      prompt: qs.filter((a) => a.prompt).length,
      delivered: qs.filter((a) => a.brief || a.prompt).length,
      promptInjecting: injecting.length,
      promptMeanChars: Math.round(chars.reduce((a, b) => a + b, 0) / Math.max(1, chars.length)),
      promptMeanCharsWhenAny: Math.round(injecting.reduce((a, b) => a + b, 0) / Math.max(1, injecting.length)),
      promptMaxChars: Math.max(0, ...chars),
      briefMeanChars: Math.round(qs.reduce((a, b) => a + b.briefChars, 0) / Math.max(1, qs.length)),
    };
  };
  const none = (set: string | undefined, half: 'first' | 'second' | undefined) =>
    asked.filter(
      (a) =>
        a.category === 'no-answer' &&
        (!set || a.set === set) &&
        (!half || Number(a.id.slice('no-answer-'.length)) < HALF === (half === 'first')),
    );
  const noRow = (xs: Asked[]) => ({
    asked: xs.length,
    injected: xs.filter((a) => a.promptChars > 0).length,
    meanCharsWhenAny: Math.round(
      xs.filter((a) => a.promptChars > 0).reduce((a, b) => a + b.promptChars, 0) /
        Math.max(1, xs.filter((a) => a.promptChars > 0).length),
    ),
  });
  return {
    questions: {
      dev: row(questions('dev')),
      dev2: row(questions('dev2')),
      probes: row(questions('probes')),
      all: row(questions()),
    },
    noAnswer: {
      'dev, first half': noRow(none('dev', 'first')),
      'dev, second half': noRow(none('dev', 'second')),
      'dev2, first half': noRow(none('dev2', 'first')),
      'dev2, second half': noRow(none('dev2', 'second')),
      probes: noRow(none('probes', undefined)),
      'first half': noRow(none(undefined, 'first')),
      'second half': noRow(none(undefined, 'second')),
      all: noRow(none(undefined, undefined)),
    },
  };
}

const dataDir = mkdtempSync(join(tmpdir(), 'cairn-bench-hooks-db-'));
const server = await startServer({ PORT: '0', HOST: '127.0.0.1', CAIRN_DATA_DIR: dataDir });
const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load ${loadavg()[0]?.toFixed(1)} at the start`;
try {
  const result: Record<string, unknown> = { date, machine };
  if (flags.only !== 'latency') {
    const load = (set: string) =>
      flags.framed ? framedQuestions(loadCodeRecall(ROOT, set)) : loadCodeRecall(ROOT, set);
    const sets: [string, ReturnType<typeof loadCodeRecall>][] = [
      ['dev', load('dev')],
      ['dev2', load('dev2')],
      ['probes', load('probes')],
    ];
    const asked = await delivery(server, sets, noAnswer, { inProcess: flags['in-process'] === true, log });
    result.delivery = { inProcess: flags['in-process'], summary: deliverySummary(asked), asked };
    log(JSON.stringify(deliverySummary(asked), null, 1));
  }
  if (flags.only !== 'delivery') {
    result.latency = await latency(server, Number(flags.rounds), log);
    log(JSON.stringify(result.latency, null, 1));
  }
  if (flags.out) writeFileSync(flags.out, `${JSON.stringify(result, null, 1)}\n`);
  else if (!flags.only && !flags['in-process'] && !flags.framed) {
    mkdirSync(join(ROOT, 'bench', 'results'), { recursive: true });
    const file = `hooks-${date}.json`;
    writeFileSync(join(ROOT, 'bench', 'results', file), `${JSON.stringify(result, null, 1)}\n`);
    writeBenchmarkSection('hooks', 'The hooks (npm run bench:hooks)', report(result, file));
  }
} finally {
  stopLauncher();
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
process.exit(0);

function report(result: Record<string, unknown>, file: string): string {
  const d = (result.delivery as { summary: ReturnType<typeof deliverySummary> }).summary;
  const l = result.latency as Awaited<ReturnType<typeof latency>>;
  const q = d.questions;
  const setLabel = { dev: 'dev (tuned on)', dev2: 'dev2 (checked on)', probes: 'probes (never tuned on)', all: 'all' };
  const deliveryRows = (['dev', 'dev2', 'probes', 'all'] as const).map((k) => {
    const r = q[k];
    return `| ${setLabel[k]} | ${r.questions} | ${pct(r.brief, r.questions)} | ${pct(r.prompt, r.questions)} | **${pct(r.delivered, r.questions)}** | ${pct(r.promptInjecting, r.questions)} | ${r.promptMeanCharsWhenAny} | ${r.promptMaxChars} |`;
  });
  const na = d.noAnswer;
  const noRow = (k: keyof typeof na, label: string) =>
    `| ${label} | ${na[k].asked} | **${pct(na[k].injected, na[k].asked)}** (${na[k].injected}) | ${na[k].meanCharsWhenAny} |`;
  const label: Record<string, string> = {
    node: '`node -e 0` (the floor: Node starts and exits)',
    noCall: '`hook user-prompt`, a prompt with no telling word (start, load, read stdin; no call)',
    userPrompt: '**`hook user-prompt`**, after session-start',
    userPromptNoStart:
      '`hook user-prompt`, a session session-start never saw (finds the repository, asks the org size)',
    sessionStart: '**`hook session-start`**',
    stopUnchanged: '`hook stop`, no file changed (git only)',
    stopChanged: '`hook stop`, a file changed (git, then the ledger; asks to record)',
    recallWarm: 'the recall call alone, from a warm client (the server’s share)',
  };
  return [
    `Run ${date} on ${machine}; command \`npm run bench:hooks\`; figures in \`bench/results/${file}\`. The hooks run as Claude Code runs them: \`node bin/cairn.js hook EVENT\` (the built command, Node ${process.versions.node}), Claude Code's hook JSON on stdin, against a server started by the bench (PGlite).`,
    '',
    `**Latency**, spawn to exit (timed by a small process of its own, scripts/hooks/launcher.mjs: spawned from the bench's, which holds the server, each run would pay that process's fork too), the org at ${l.entries.toLocaleString('en')} entries (CodeRecall's four orgs and fillers in haulwise's style, scripts/hooks/filler.ts), in a git repository of ${l.project}, on its questions (${l.userPromptInjecting} of ${l.times.userPrompt?.runs} prompts injected something, ${l.userPromptMeanChars} characters on average). Goals: user-prompt p50 ≤ 100 ms, p95 ≤ 200 ms; session-start p95 ≤ 300 ms.`,
    '',
    '| what | runs | p50 ms | p95 ms | max ms |',
    '| --- | --- | --- | --- | --- |',
    ...Object.entries(l.times).map(([k, v]) => `| ${label[k] ?? k} | ${v.runs} | ${v.p50} | ${v.p95} | ${v.max} |`),
    '',
    `**Delivered without asking** (goal ≥ 90 %): each CodeRecall question asked as its agent in its project, a session of its own — session-start, then user-prompt on the question; delivered when an answer entry's line (its id and text) is in what either injected. Each org in a Cairn org of its own (about 225 entries).`,
    '',
    '| set | questions | by the brief | by the prompt hook | delivered | prompt hook injects anything | its characters, mean when any | max |',
    '| --- | --- | --- | --- | --- | --- | --- | --- |',
    ...deliveryRows,
    '',
    `**Nothing fits, nothing injected** (goal ≤ 10 %): bench/prompts/no-answer.json's ${noAnswer.length} coding prompts, each asked in each of the seven orgs (the asker as coderecall.ts's askerOf says), a session each, as above: how often the prompt hook injects anything. The relevance filter (src/agent/relevance.ts) was tuned on dev's questions and the first half of the prompts, and checked on dev2's and the second half.`,
    '',
    '| prompts | asked | anything injected | characters, mean when any |',
    '| --- | --- | --- | --- |',
    noRow('dev, first half', 'first half, in dev’s orgs (tuned on)'),
    noRow('dev2, second half', 'second half, in dev2’s orgs (checked on)'),
    noRow('dev, second half', 'second half, in dev’s orgs'),
    noRow('dev2, first half', 'first half, in dev2’s orgs'),
    noRow('probes', 'all, in the probes’ orgs (bench/probes/, never tuned on)'),
    noRow('all', 'all'),
  ].join('\n');
}
