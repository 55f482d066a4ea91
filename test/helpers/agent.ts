/**
 * The agent side as an agent's client runs it: the `cairn` command as a child process, in a
 * temporary git repository, with its own cache directory, fed a hook payload on stdin.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'cairn.js');

export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
  /** Process start to exit. */
  ms: number;
}

/**
 * Runs `cairn ARGS` in `cwd` with exactly `env` (plus PATH), stdin written and closed (`holdStdin`:
 * left open, as a client that never closes it). `bin`: the command (default this repository's; an
 * installed package's, test/pack.test.ts).
 */
export function cairn(
  args: string[],
  opts: { cwd: string; env: Record<string, string>; stdin?: string; bin?: string; holdStdin?: boolean },
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, [opts.bin ?? BIN, ...args], {
      cwd: opts.cwd,
      env: { PATH: process.env.PATH ?? '', ...opts.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, ms: performance.now() - started }));
    if (opts.holdStdin) child.stdin.write(opts.stdin ?? '');
    else child.stdin.end(opts.stdin ?? '');
  });
}

export interface Repo {
  dir: string;
  /** Writes files and commits them; `secondsFromNow` sets the commit's dates. */
  commit(files: Record<string, string>, message: string, secondsFromNow?: number): string;
  write(files: Record<string, string>): void;
  git(...args: string[]): string;
  remove(): void;
}

/** A repository with `origin` set to `remote`, and a first commit an hour old. */
export function tempRepo(remote = 'https://github.com/acme/shop.git', files: Record<string, string> = {}): Repo {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-agent-repo-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, encoding: 'utf8' }).trim();
  const write = (fs: Record<string, string>) => {
    for (const [path, text] of Object.entries(fs)) {
      const file = join(dir, path);
      execFileSync('mkdir', ['-p', dirname(file)]);
      writeFileSync(file, text);
    }
  };
  git('init', '-q', '-b', 'main');
  git('config', 'user.email', 'dev@example.com');
  git('config', 'user.name', 'Dev Eloper');
  git('config', 'commit.gpgsign', 'false');
  if (remote) git('remote', 'add', 'origin', remote);
  const commit = (fs: Record<string, string>, message: string, secondsFromNow = 0) => {
    write(fs);
    git('add', '-A');
    const date = `@${Math.floor(Date.now() / 1000) + secondsFromNow} +0000`;
    execFileSync('git', ['commit', '-q', '--allow-empty', '-m', message], {
      cwd: dir,
      env: { ...process.env, GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date },
    });
    return git('rev-parse', 'HEAD');
  };
  commit({ 'README.md': '# shop\n', ...files }, 'first', -3600);
  return { dir, commit, write, git, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A cache directory of its own, and the variables a hook needs. */
export async function agentEnv(
  url: string,
  key: string,
  more: Record<string, string> = {},
): Promise<Record<string, string>> {
  const home = mkdtempSync(join(tmpdir(), 'cairn-agent-home-'));
  await mkdir(join(home, '.cache'), { recursive: true });
  return { HOME: home, XDG_CACHE_HOME: join(home, '.cache'), CAIRN_URL: url, CAIRN_KEY: key, ...more };
}

/** The additionalContext of a hook's stdout (and that it is the client's JSON for `event`). */
export function contextOf(stdout: string, event: 'SessionStart' | 'UserPromptSubmit'): string {
  const out = JSON.parse(stdout) as { hookSpecificOutput: { hookEventName: string; additionalContext: string } };
  if (Object.keys(out).join() !== 'hookSpecificOutput') throw new Error(`unexpected keys: ${stdout}`);
  if (out.hookSpecificOutput.hookEventName !== event) throw new Error(`not ${event}: ${stdout}`);
  return out.hookSpecificOutput.additionalContext;
}

/** Claude Code's recorded payloads (../shared/AGENT-SIDE.md §1.2). */
export const claude = {
  sessionStart: (session: string, cwd: string, source = 'startup') => ({
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/x/${session}.jsonl`,
    cwd,
    hook_event_name: 'SessionStart',
    source,
  }),
  userPrompt: (session: string, cwd: string, prompt: string) => ({
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/x/${session}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'UserPromptSubmit',
    prompt,
    prompt_id: 'p-1',
  }),
  stop: (session: string, cwd: string, active = false) => ({
    session_id: session,
    transcript_path: `/home/dev/.claude/projects/x/${session}.jsonl`,
    cwd,
    permission_mode: 'default',
    hook_event_name: 'Stop',
    stop_hook_active: active,
    last_assistant_message: 'Done.',
    prompt_id: 'p-1',
  }),
};
