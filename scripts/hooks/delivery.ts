/**
 * What the hooks put in front of the model without being asked (issue 40.9), on CodeRecall dev and
 * dev2: each org replayed into a Cairn org of its own (coderecall.ts); each question asked as its
 * agent in a git repository whose `origin` is its project (no repository for an org-wide one),
 * as a session of its own — the session-start hook, then the user-prompt hook on the question.
 * A question is delivered when the line of one of its answer entries is in what either injected:
 * the entry's id (the brief shows its last 8 hex digits, the prompt hook the whole id) and the
 * start of its text. Then each of bench/prompts/no-answer.json's prompts, asked in every org as
 * coderecall.ts's `askerOf` says, the same way: does the user-prompt hook inject anything?
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { clean } from '../../src/agent/block';
import type { HookEvent } from '../../src/agent/hook';
import type { RunningServer } from '../../src/node/node';
import { askerOf, type CodeEntry, type CodeOrg, replayOrg } from '../coderecall';
import { gitRepo, type HookRun, hookEnv, hookInProcess, hookProcess, injected, payload } from './run-hook';

export interface Asked {
  set: string;
  org: string;
  /** The question's id, or `no-answer-<i>`. */
  id: string;
  category: string;
  /** The brief delivered an answer; the prompt hook did. */
  brief: boolean;
  prompt: boolean;
  /** Characters the prompt hook injected (0: nothing). */
  promptChars: number;
  /** The data set's keys of what the prompt hook injected. */
  promptKeys: string[];
  briefChars: number;
}

/** Whether `text` holds the line of entry `id`: its id or handle, and the start of its text on that line. */
export function shows(text: string, id: string, entry: CodeEntry): boolean {
  const a = entry.args as { content?: string; title?: string };
  const start = clean((entry.tool === 'plan' ? a.title : a.content) ?? '').slice(0, 40);
  return text
    .split('\n')
    .some((l) => (l.includes(`id ${id}`) || l.includes(`id ${id.slice(-8)})`)) && l.includes(start));
}

export async function delivery(
  server: RunningServer,
  sets: [string, CodeOrg[]][],
  prompts: string[],
  opts: { inProcess: boolean; log: (line: string) => void },
): Promise<Asked[]> {
  const asked: Asked[] = [];
  const cache = mkdtempSync(join(tmpdir(), 'cairn-bench-hooks-cache-'));
  const repos = new Map<string | null, string>();
  const dirOf = (project: string | null) => {
    let dir = repos.get(project);
    if (!dir) {
      // an org-wide question is asked outside any repository: the hooks name no project
      dir = project === null ? mkdtempSync(join(tmpdir(), 'cairn-bench-hooks-none-')) : gitRepo(project);
      repos.set(project, dir);
    }
    return dir;
  };
  for (const [set, orgs] of sets) {
    for (const org of orgs) {
      const replayed = await replayOrg(server, org);
      const entryOf = new Map(org.entries.map((e) => [e.key, e]));
      const session = async (id: string, agent: string, project: string | null, prompt: string) => {
        const dir = dirOf(project);
        const env = hookEnv({ url: server.url, key: replayed.secret, agent, dir, cache });
        const run = (event: HookEvent, stdin: string): Promise<HookRun> =>
          opts.inProcess ? hookInProcess(event, stdin, env) : hookProcess(event, stdin, dir, env);
        const s = `${set}-${org.org}-${id}`;
        const start = await run('session-start', payload('session-start', s, dir));
        const up = await run('user-prompt', payload('user-prompt', s, dir, { prompt }));
        for (const r of [start, up]) if (r.stderr) opts.log(`${id}: ${r.stderr.trim()}`);
        return { brief: injected(start), prompt: injected(up) };
      };
      const keysIn = (text: string) =>
        [...text.matchAll(/id ([0-9a-f-]{36})\]/g)].map((m) => replayed.keys.get(m[1] as string) ?? (m[1] as string));
      for (const q of org.questions) {
        const got = await session(q.id, q.agent, q.project, q.query);
        const answers = q.relevant.flatMap((k) => {
          const id = replayed.ids.get(k);
          const e = entryOf.get(k);
          return id && e ? [{ id, e }] : [];
        });
        asked.push({
          set,
          org: org.org,
          id: q.id,
          category: q.category,
          brief: answers.some(({ id, e }) => shows(got.brief, id, e)),
          prompt: answers.some(({ id, e }) => shows(got.prompt, id, e)),
          promptChars: got.prompt.length,
          promptKeys: keysIn(got.prompt),
          briefChars: got.brief.length,
        });
      }
      for (const [i, prompt] of prompts.entries()) {
        const { agent, project } = askerOf(org, i);
        const got = await session(`no-answer-${i}`, agent, project, prompt);
        asked.push({
          set,
          org: org.org,
          id: `no-answer-${i}`,
          category: 'no-answer',
          brief: false,
          prompt: false,
          promptChars: got.prompt.length,
          promptKeys: keysIn(got.prompt),
          briefChars: got.brief.length,
        });
      }
      await replayed.close();
      const mine = asked.filter((a) => a.org === org.org);
      const qs = mine.filter((a) => a.category !== 'no-answer');
      const na = mine.filter((a) => a.category === 'no-answer');
      opts.log(
        `${set}/${org.org}: delivered ${qs.filter((a) => a.brief || a.prompt).length}/${qs.length} (brief ${qs.filter((a) => a.brief).length}, prompt ${qs.filter((a) => a.prompt).length}); no-answer injected ${na.filter((a) => a.promptChars > 0).length}/${na.length}`,
      );
    }
  }
  for (const dir of repos.values()) rmSync(dir, { recursive: true, force: true });
  rmSync(cache, { recursive: true, force: true });
  return asked;
}
