/**
 * `npm run bench:secrets`: the secrets check a write passes (src/domain/secrets.ts).
 * False refusals: every entry text of CodeRecall dev.json and dev2.json (each entry's arguments, as
 * its write tool sends them) and of LoCoMo dev (each dialog turn as bench:recall stores it, with
 * every other string of the turn as metadata) goes through the check; each hit is printed with
 * its field and kind (must be none). Cost: the time the check adds to one write, for a typical
 * 500-character content with two tags and for a 16 KiB content (the entry limit), once for a
 * 5 MiB text artifact (the artifact limit), and for 1 MiB of the worst texts found. Writes
 * bench/results/secrets-<date>.json and the "secrets" section of BENCHMARKS.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { artifactFields, type EntryTexts, entryFields, findSecret, type TextField } from '../src/domain/secrets';
import { writeBenchmarkSection } from './benchmarks-md';

const ROOT = join(import.meta.dirname, '..');
const BENCH = join(ROOT, '..', 'shared', 'bench');
const read = (path: string) => JSON.parse(readFileSync(join(BENCH, path), 'utf8'));

interface Named {
  name: string;
  fields: TextField[];
}

function codeRecall(file: string): Named[] {
  const orgs = read(`coderecall/${file}`) as { org: string; entries: { key: string; args: EntryTexts }[] }[];
  return orgs.flatMap((o) => o.entries.map((e) => ({ name: `${o.org}/${e.key}`, fields: entryFields(e.args) })));
}

function locomo(): Named[] {
  type Turn = Record<string, unknown> & { speaker: string; dia_id: string; text: string };
  const convs = read('locomo/locomo-dev.json') as { sample_id: string; conversation: Record<string, unknown> }[];
  return convs.flatMap((c) =>
    Object.entries(c.conversation)
      .filter(([k]) => /^session_\d+$/.test(k))
      .flatMap(([k, turns]) =>
        (turns as Turn[]).map((t) => {
          const { text, ...rest } = t;
          const content = `[${c.conversation[`${k}_date_time`]}] ${t.speaker}: ${text}`;
          return { name: `${c.sample_id}/${t.dia_id}`, fields: entryFields({ content, metadata: rest }) };
        }),
      ),
  );
}

async function refusals(set: string, items: Named[]) {
  const hits: string[] = [];
  for (const item of items) {
    const found = await findSecret(item.fields);
    if (found) hits.push(`${item.name}: ${found.field} (${found.kind})`);
  }
  for (const h of hits) console.log(`  false refusal in ${set}: ${h}`);
  return { set, entries: items.length, texts: items.reduce((n, i) => n + i.fields.length, 0), refused: hits.length };
}

/**
 * Microseconds per check, after as many warm-up runs: the process's CPU time per run (user +
 * system, what a write pays even on a busy machine), and the wall time's median and 90th percentile.
 */
async function timed(fields: TextField[], runs: number) {
  for (let i = 0; i < runs; i++) await findSecret(fields);
  const us: number[] = [];
  const cpu = process.cpuUsage();
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await findSecret(fields);
    us.push((performance.now() - t) * 1000);
  }
  const used = process.cpuUsage(cpu);
  us.sort((a, b) => a - b);
  const at = (q: number) => Math.round(us[Math.min(runs - 1, Math.floor(q * runs))] as number);
  return { runs, cpu_us: Math.round((used.user + used.system) / runs), p50_us: at(0.5), p90_us: at(0.9) };
}

/** Real entry texts, one after another, cut to `chars`. */
function prose(texts: string[], chars: number): string {
  let out = '';
  for (let i = 0; out.length < chars; i++) out += `${texts[i % texts.length]}\n`;
  return out.slice(0, chars);
}

const sets = [
  await refusals('CodeRecall dev.json', codeRecall('dev.json')),
  await refusals('CodeRecall dev2.json', codeRecall('dev2.json')),
  await refusals('LoCoMo dev', locomo()),
];
const texts = codeRecall('dev.json').flatMap((n) => n.fields.filter((f) => f.field === 'content').map((f) => f.text));
const typical = [
  { field: 'content', text: prose(texts, 500) },
  { field: 'tags[0]', text: 'database' },
  { field: 'tags[1]', text: 'migrations' },
];
const cost = {
  typical_500: await timed(typical, 2000),
  content_16k: await timed([{ field: 'content', text: prose(texts, 16_384) }], 200),
  artifact_5mib: await timed(
    artifactFields({
      name: 'notes.md',
      bytes: new TextEncoder().encode(prose(texts, 5 * 1024 * 1024)),
      from: 'content',
    }),
    3,
  ),
  // the worst texts found for the rules: a URL scheme or a scheme with a user, over and over
  adversarial_1mib: await timed([{ field: 'content', text: 'https://a:'.repeat(104_858) }], 3),
  adversarial_redis_1mib: await timed([{ field: 'content', text: 'redis://a:'.repeat(104_858) }], 3),
};

const date = new Date().toISOString().slice(0, 10);
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}, load ${loadavg()[0]?.toFixed(1)}`;
const result = { date, machine, sets, cost };
writeFileSync(join(ROOT, 'bench', 'results', `secrets-${date}.json`), `${JSON.stringify(result, null, 2)}\n`);
console.log(JSON.stringify(result, null, 2));

const rows = sets.map((s) => `| ${s.set} | ${s.entries} | ${s.texts} | ${s.refused} |`);
const us = (c: { cpu_us: number; p50_us: number; p90_us: number }) =>
  `${c.cpu_us} µs of CPU (wall ${c.p50_us} µs median, ${c.p90_us} µs 90th percentile)`;
writeBenchmarkSection(
  'secrets',
  'Secrets check (npm run bench:secrets)',
  [
    `Run ${date} on ${machine}; command \`npm run bench:secrets\`; figures in \`bench/results/secrets-${date}.json\`.`,
    '',
    '| set | entries | texts scanned | refused (must be 0) |',
    '| --- | --- | --- | --- |',
    ...rows,
    '',
    `Added per write: 500-character content and two tags ${us(cost.typical_500)}; 16 KiB content ${us(cost.content_16k)}; a 5 MiB text artifact ${(cost.artifact_5mib.cpu_us / 1000).toFixed(0)} ms of CPU. Worst texts found: 1 MiB of \`https://a:\` ${(cost.adversarial_1mib.cpu_us / 1000).toFixed(0)} ms, of \`redis://a:\` ${(cost.adversarial_redis_1mib.cpu_us / 1000).toFixed(0)} ms of CPU.`,
  ].join('\n'),
);
