/**
 * `npm run bench:recall-cv -- --grid '{"v_ref_df": [2, 3, 4, 5]}'`: leave one org out over
 * recall's constants. CodeRecall's four orgs (dev and dev2) are replayed and asked once for each
 * combination of the grid's values (scripts/recall-params.ts, as `bench:recall --params` does) and
 * once with the constants as they are; then, for each org, the combination that does best on the
 * other three (R@5, then MRR, then the values as they are) is the one that org is measured with.
 * What it prints is how the ranking would fare on an org it was not tuned on if each constant were
 * fitted: when an org does worse with what the other three choose than with the values as they
 * are, those values are partly fitted to it. Prints only (and writes --out); nothing is recorded.
 *
 *   --grid JSON|file   constant name → the values to try, every combination of them
 *   --out file         the per-org figures of every combination, as JSON
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startServer } from '../src/node/node';
import { loadCodeRecall, runCodeRecall } from './coderecall';
import { type Scored, score } from './coderecall-score';
import {
  best,
  combinations,
  currentValues,
  type Figures,
  jsonArg,
  meanOver,
  prepareWithParams,
  type RecallParams,
  type Run,
} from './recall-params';

const ROOT = join(import.meta.dirname, '..');
const SETS = ['dev', 'dev2'];

function parseGrid(arg: string): Record<string, (number | string)[]> {
  const grid = jsonArg(arg);
  if (
    typeof grid !== 'object' ||
    grid === null ||
    Array.isArray(grid) ||
    Object.keys(grid).length === 0 ||
    !Object.values(grid).every((v) => Array.isArray(v) && v.length > 0)
  ) {
    throw new Error('--grid: a JSON object of constant name → a list of values, e.g. {"v_lead": [0.25, 0.5, 1]}');
  }
  return grid as Record<string, (number | string)[]>;
}

const same = (a: RecallParams, b: RecallParams) => Object.keys(a).every((k) => a[k] === b[k]);

async function measure(params: RecallParams, current: boolean): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'cairn-recall-cv-'));
  if (!current) await prepareWithParams(join(dataDir, 'db'), params);
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('CAIRN_EMBEDDINGS')));
  const server = await startServer({ ...env, CAIRN_EMBEDDINGS: 'off', PORT: '0', CAIRN_DATA_DIR: dataDir });
  try {
    const rows: Scored[] = [];
    for (const set of SETS) rows.push(...(await runCodeRecall(server, loadCodeRecall(ROOT, set))).answers.map(score));
    // unrounded, unlike coderecall-score's summaries: a choice between values turns on small differences
    const perOrg = Object.fromEntries(
      [...Map.groupBy(rows, (r) => r.org)].map(([org, rs]) => [
        org,
        {
          r5: rs.reduce((s, r) => s + r.r5, 0) / rs.length,
          mrr: rs.reduce((s, r) => s + r.mrr, 0) / rs.length,
          violations: rs.filter((r) => r.violating.length > 0).length,
        },
      ]),
    );
    return { params, current, perOrg };
  } finally {
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (x: number) => (Math.round(1000 * x) / 10).toFixed(1);
const mrr = (x: number) => x.toFixed(3);
const values = (p: RecallParams) =>
  Object.entries(p)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');

async function main() {
  const { values: args } = parseArgs({ options: { grid: { type: 'string' }, out: { type: 'string' } } });
  if (!args.grid) throw new Error('--grid JSON: constant name → the values to try');
  if (process.env.DATABASE_URL) throw new Error('runs on the embedded database only (no DATABASE_URL)');
  const grid = parseGrid(args.grid);
  const now = currentValues(Object.keys(grid));
  const runs: Run[] = [await measure(now, true)];
  for (const p of combinations(grid)) {
    if (same(p, now)) continue;
    runs.push(await measure(p, false));
    console.error(`measured ${values(p)}`);
  }
  const orgs = Object.keys(runs[0]?.perOrg ?? {});
  const lines = [
    `Leave one org out over ${values(now).replace(/ [^,]+/g, '')} (${runs.length} combinations, the values as they are among them: ${values(now)}); CodeRecall dev and dev2, R@5 / MRR.`,
    '',
    '| held out | chosen on the other three | held out with them | with the values as they are |',
    '| --- | --- | --- | --- |',
  ];
  const current = runs[0] as Run;
  let heldR5 = 0;
  let heldMrr = 0;
  for (const org of orgs) {
    const chosen = best(
      runs,
      orgs.filter((o) => o !== org),
    );
    const f = chosen.perOrg[org] as Figures;
    const c = current.perOrg[org] as Figures;
    heldR5 += f.r5 / orgs.length;
    heldMrr += f.mrr / orgs.length;
    lines.push(
      `| ${org} | ${chosen.current ? 'as they are' : values(chosen.params)} | ${pct(f.r5)} / ${mrr(f.mrr)}${f.violations ? ` (${f.violations} violations)` : ''} | ${pct(c.r5)} / ${mrr(c.mrr)} |`,
    );
  }
  lines.push(
    '',
    `Held out, mean over the orgs: R@5 ${pct(heldR5)}, MRR ${mrr(heldMrr)}; with the values as they are ${pct(meanOver(current, orgs, 'r5'))}, ${mrr(meanOver(current, orgs, 'mrr'))}.`,
    '',
    `| values | ${orgs.join(' | ')} |`,
    `| --- | ${orgs.map(() => '---').join(' | ')} |`,
    ...runs.map(
      (r) =>
        `| ${r.current ? `${values(r.params)} (as they are)` : values(r.params)} | ${orgs
          .map((o) => `${pct(r.perOrg[o]?.r5 ?? 0)} / ${mrr(r.perOrg[o]?.mrr ?? 0)}`)
          .join(' | ')} |`,
    ),
  );
  console.log(lines.join('\n'));
  if (args.out) writeFileSync(args.out, `${JSON.stringify({ grid, runs }, null, 2)}\n`);
}

await main();
