/**
 * `cairn hook EVENT` as Claude Code runs it: the built command (`node bin/cairn.js hook EVENT`,
 * node being this process's own, as `cairn connect` writes it into the hooks) started as a process
 * in the project's directory, Claude Code's hook JSON on stdin, its environment
 * (CLAUDE_PROJECT_DIR, the CAIRN_ variables) — spawned and timed by a small process of its own
 * (launcher.mjs), not by this one, whose size would add its fork to every run. Or, to tune, the
 * same event run in this process (src/agent/hook.ts's runHook on the same payload and environment).
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { readConfig } from '../../src/agent/config';
import { type HookEvent, LIMIT_MS, runHook } from '../../src/agent/hook';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'cairn.js');

export interface HookRun {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Spawn to exit. */
  ms: number;
}

const EVENT_NAME: Record<HookEvent, string> = {
  'session-start': 'SessionStart',
  'user-prompt': 'UserPromptSubmit',
  stop: 'Stop',
};

/** Claude Code's stdin for an event (the fields recorded from it: ../shared/AGENT-SIDE.md §1.2). */
export function payload(event: HookEvent, session: string, cwd: string, more: Record<string, unknown> = {}): string {
  const common = {
    session_id: session,
    transcript_path: join(cwd, '.claude-transcripts', `${session}.jsonl`),
    cwd,
    hook_event_name: EVENT_NAME[event],
  };
  const own: Record<HookEvent, Record<string, unknown>> = {
    'session-start': { source: 'startup' },
    'user-prompt': { permission_mode: 'default', prompt_id: `${session}-p`, prompt: '' },
    stop: { permission_mode: 'default', stop_hook_active: false, last_assistant_message: 'Done.' },
  };
  return JSON.stringify({ ...common, ...own[event], ...more });
}

/** The environment a hook gets from Claude Code and from `cairn connect`'s command line. */
export function hookEnv(opts: { url: string; key: string; agent: string; dir: string; cache: string }) {
  return {
    PATH: process.env.PATH ?? '',
    HOME: opts.cache,
    XDG_CACHE_HOME: opts.cache,
    CLAUDECODE: '1',
    CLAUDE_PROJECT_DIR: opts.dir,
    CAIRN_URL: `${opts.url}/mcp`,
    CAIRN_KEY: opts.key,
    CAIRN_AGENT: opts.agent,
  };
}

/** Runs `node bin/cairn.js hook EVENT` with `stdin`. */
export function hookProcess(event: string, stdin: string, cwd: string, env: Record<string, string>): Promise<HookRun> {
  return timed([BIN, 'hook', event], cwd, env, stdin);
}

let launcher: { child: ChildProcess; send: (request: Record<string, unknown>) => Promise<HookRun> } | undefined;

function launch() {
  const child = spawn(process.execPath, [join(import.meta.dirname, 'launcher.mjs')], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const waiting = new Map<number, (run: HookRun) => void>();
  createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
    const { id, ...run } = JSON.parse(line) as HookRun & { id: number };
    waiting.get(id)?.(run);
    waiting.delete(id);
  });
  let next = 0;
  const send = (request: Record<string, unknown>) =>
    new Promise<HookRun>((resolve) => {
      const id = next++;
      waiting.set(id, resolve);
      child.stdin?.write(`${JSON.stringify({ id, ...request })}\n`);
    });
  return { child, send };
}

/** Runs `node ARGS` (through the launcher): its output and milliseconds from spawn to exit. */
export function timed(args: string[], cwd: string, env: Record<string, string>, stdin = ''): Promise<HookRun> {
  launcher ??= launch();
  return launcher.send({ args, cwd, env, stdin });
}

/** Ends the launcher (started on the first run). */
export function stopLauncher(): void {
  launcher?.child.stdin?.end();
  launcher = undefined;
}

/** The same event in this process: what the command would print, or its one line on stderr. */
export async function hookInProcess(event: HookEvent, stdin: string, env: Record<string, string>): Promise<HookRun> {
  const started = performance.now();
  try {
    const out = await runHook(event, 'claude-code', stdin, readConfig(env), env, Date.now() + LIMIT_MS[event]);
    return { code: 0, stdout: out ? `${out}\n` : '', stderr: '', ms: performance.now() - started };
  } catch (err) {
    return { code: 0, stdout: '', stderr: String((err as Error).message), ms: performance.now() - started };
  }
}

/** What a hook put in front of the model: its additionalContext ('' for nothing). */
export function injected(run: HookRun): string {
  if (!run.stdout.trim()) return '';
  const out = JSON.parse(run.stdout) as { hookSpecificOutput?: { additionalContext?: string } };
  return out.hookSpecificOutput?.additionalContext ?? '';
}

/** The file that stands for an anchor: itself, or for a folder (a trailing `/`, or no extension) a file in it. */
export function fileOf(anchor: string): string {
  return anchor.endsWith('/') || !/\.[A-Za-z0-9]+$/.test(anchor) ? join(anchor, 'index.txt') : anchor;
}

/** A git repository whose `origin` is `remote` (none: a repository without a remote), `files` committed an hour ago. */
export function gitRepo(remote: string | null, files: string[] = []): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-hooks-repo-'));
  const git = (args: string[], env: Record<string, string> = {}) =>
    execFileSync('git', args, { cwd: dir, env: { ...process.env, ...env } });
  git(['init', '-q', '-b', 'main']);
  git(['config', 'user.email', 'dev@example.com']);
  git(['config', 'user.name', 'Dev Eloper']);
  git(['config', 'commit.gpgsign', 'false']);
  if (remote) git(['remote', 'add', 'origin', remote]);
  writeFileSync(join(dir, 'README.md'), '# bench\n');
  for (const f of files) {
    const path = join(dir, fileOf(f));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `${f}\n`);
  }
  git(['add', '-A']);
  const date = `@${Math.floor(Date.now() / 1000) - 3600} +0000`;
  git(['commit', '-q', '-m', 'first'], { GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date });
  return dir;
}
