/**
 * How long `cairn hook` takes, spawn to exit, with the org at 10,000 entries: CodeRecall's four
 * orgs (dev and dev2, 902 writes) in one Cairn org, and fillers in haulwise's style and projects
 * (filler.ts) up to 10,000 entries; the hooks run in a git repository of haulwise's
 * telemetry-ingest (its anchored files committed an hour before, a few changed since), as one of
 * its agents, on that project's questions. Each round: a session starts (session-start), its first
 * prompt (user-prompt), a prompt of a session the session-start hook never saw, the session's stop
 * (every other round after an uncommitted change, so it asks the ledger); beside them `node -e 0`,
 * a prompt without a telling word (start, load, read stdin, exit: no call), and the recall call
 * alone from this warm process (what the server takes).
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { RunningServer } from '../../src/node/node';
import { type CodeEntry, type CodeOrg, loadCodeRecall, replayOrg } from '../coderecall';
import { fillerEntries } from './filler';
import { fileOf, gitRepo, type HookRun, hookEnv, hookProcess, injected, payload, timed } from './run-hook';

const ORG_SIZE = 10_000;
const PROJECT = 'git@github.com:haulwise/telemetry-ingest.git';
const AGENT = 'claude-ingest';

interface Timing {
  runs: number;
  p50: number;
  p95: number;
  max: number;
}

const percentile = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(p * s.length) - 1)] ?? 0;
};
const timing = (xs: number[]): Timing => ({
  runs: xs.length,
  p50: Math.round(percentile(xs, 0.5)),
  p95: Math.round(percentile(xs, 0.95)),
  max: Math.round(Math.max(...xs)),
});

/**
 * The org of 10,000 entries: CodeRecall's four orgs in write order, then fillers until it stores
 * 10,000 (a filler identical to an earlier memory is the same entry: more are written).
 */
export async function latencyOrg(server: RunningServer, log: (line: string) => void) {
  const root = join(import.meta.dirname, '..', '..');
  const orgs = [...loadCodeRecall(root, 'dev'), ...loadCodeRecall(root, 'dev2')];
  const haulwise = orgs.find((o) => o.org === 'haulwise') as CodeOrg;
  const own = orgs.flatMap((o) => o.entries);
  const started = performance.now();
  const org = await replayOrg(server, { org: 'hooks-latency', entries: own, questions: [] });
  const stored = () => new Set(org.ids.values()).size;
  let fillers: CodeEntry[] = [];
  while (stored() < ORG_SIZE) {
    const more = fillerEntries([haulwise], fillers.length + ORG_SIZE - stored());
    await org.write(more.slice(fillers.length));
    fillers = more;
  }
  const loadSeconds = Math.round((performance.now() - started) / 1000);
  log(`latency org: ${stored()} entries (${org.refused.length} writes refused), loaded in ${loadSeconds} s`);
  return { org, entries: [...own, ...fillers], haulwise, stored: stored(), loadSeconds };
}

export async function latency(server: RunningServer, rounds: number, log: (line: string) => void) {
  const { org, entries, haulwise, stored, loadSeconds } = await latencyOrg(server, log);
  const overview = await (await org.as(AGENT))('space', { view: 'overview', scope: 'org' });
  const counts = overview.structured.counts as Record<string, number>;
  const visible = Object.values(counts).reduce((a, b) => a + b, 0);
  const anchored = [
    ...new Set(
      entries.filter((e) => e.project === PROJECT).flatMap((e) => (e.args.paths as string[] | undefined) ?? []),
    ),
  ];
  const repo = gitRepo(PROJECT, anchored);
  // a few anchored files changed after the entries were written: their entries get marked
  const git = (...args: string[]) => execFileSync('git', args, { cwd: repo });
  for (const p of anchored.slice(0, 6)) appendFileSync(join(repo, fileOf(p)), 'x\n');
  git('commit', '-q', '-am', 'touch anchored files');
  const cache = mkdtempSync(join(tmpdir(), 'cairn-bench-hooks-cache-'));
  const env = hookEnv({ url: server.url, key: org.secret, agent: AGENT, dir: repo, cache });
  const prompts = haulwise.questions.filter((q) => q.project === PROJECT).map((q) => q.query);
  const recallWarm = await org.as(AGENT);

  const out: Record<string, number[]> = {
    node: [],
    noCall: [],
    userPrompt: [],
    userPromptNoStart: [],
    sessionStart: [],
    stopUnchanged: [],
    stopChanged: [],
    recallWarm: [],
  };
  let injecting = 0;
  let chars = 0;
  const check = (r: HookRun, what: string) => {
    if (r.code !== 0 || r.stderr) throw new Error(`${what}: exit ${r.code}, ${r.stderr.trim()}`);
    return r;
  };
  for (let i = 0; i < rounds; i++) {
    const prompt = prompts[i % prompts.length] as string;
    const s = `latency-${i}`;
    out.node?.push((await timed(['-e', '0'], repo, env)).ms);
    out.noCall?.push(
      check(
        await hookProcess('user-prompt', payload('user-prompt', s, repo, { prompt: 'thanks, continue' }), repo, env),
        'no call',
      ).ms,
    );
    out.sessionStart?.push(
      check(await hookProcess('session-start', payload('session-start', s, repo), repo, env), 'session-start').ms,
    );
    const up = check(
      await hookProcess('user-prompt', payload('user-prompt', s, repo, { prompt }), repo, env),
      'user-prompt',
    );
    out.userPrompt?.push(up.ms);
    if (injected(up)) injecting++;
    chars += injected(up).length;
    out.userPromptNoStart?.push(
      check(
        await hookProcess('user-prompt', payload('user-prompt', `${s}-fresh`, repo, { prompt }), repo, env),
        'user-prompt, fresh',
      ).ms,
    );
    const changed = i % 2 === 1;
    if (changed) appendFileSync(join(repo, 'scratch.txt'), `${i}\n`);
    const stop = check(await hookProcess('stop', payload('stop', s, repo), repo, env), 'stop');
    if (changed && !stop.stdout.includes('"block"')) throw new Error('stop after a change did not ask to record');
    (changed ? out.stopChanged : out.stopUnchanged)?.push(stop.ms);
    const t = performance.now();
    await recallWarm('recall', { query: prompt, limit: 10, project: PROJECT });
    out.recallWarm?.push(performance.now() - t);
  }
  rmSync(repo, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
  await org.close();
  const times = Object.fromEntries(Object.entries(out).map(([k, xs]) => [k, timing(xs)]));
  return {
    entries: stored,
    /** What the agent's overview counts: no other agent's private notes, no superseded entry. */
    visible,
    loadSeconds,
    project: PROJECT,
    agent: AGENT,
    node: process.version,
    times,
    userPromptInjecting: injecting,
    userPromptMeanChars: Math.round(chars / rounds),
  };
}
