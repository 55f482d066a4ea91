/**
 * What the agent side asks git: where the repository is and what it is called (the project),
 * the session's starting point, and whether files changed. Every call is bounded in time, takes
 * no optional lock (GIT_OPTIONAL_LOCKS=0: a status beside a running agent never holds the index),
 * reads paths literally (an anchor from memory is never pathspec magic) and gives `undefined`
 * when git is missing, the directory is no repository, or time runs out.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';

/**
 * node:child_process, loaded when git first runs (4 ms of a hook's start here; a prompt whose hits
 * carry no anchor runs no git).
 */
const childProcess = () => process.getBuiltinModule('node:child_process');

/** Runs git; its stdout, or undefined on any failure. */
export function git(cwd: string, args: string[], timeoutMs: number): Promise<string | undefined> {
  return new Promise((resolve) => {
    childProcess().execFile(
      'git',
      ['--literal-pathspecs', '-c', 'core.quotePath=false', ...args],
      {
        cwd,
        timeout: Math.max(1, Math.floor(timeoutMs)),
        maxBuffer: 8 * 1024 * 1024,
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0', LC_ALL: 'C' },
        windowsHide: true,
      },
      (err, stdout) => resolve(err ? undefined : stdout),
    );
  });
}

export interface Repo {
  /** The repository's root directory. */
  root: string;
  /** HEAD's commit; null before the first commit. */
  head: string | null;
  /** The `origin` remote's URL, without a password. */
  origin: string | undefined;
}

/** The repository `cwd` is in, or undefined. Two git calls, run together. */
export async function findRepo(cwd: string, timeoutMs: number): Promise<Repo | undefined> {
  const [top, origin] = await Promise.all([
    // the root, then HEAD's commit (nothing for an unborn HEAD, with exit 1: read it anyway)
    gitLines(cwd, ['rev-parse', '--show-toplevel', '--verify', '-q', 'HEAD'], timeoutMs),
    git(cwd, ['config', '--get', 'remote.origin.url'], timeoutMs),
  ]);
  const root = top?.[0];
  if (!root) return undefined;
  const head = top[1] && /^[0-9a-f]{40,64}$/.test(top[1]) ? top[1] : null;
  return { root, head, origin: origin?.trim() ? withoutPassword(origin.trim()) : undefined };
}

/** Like `git`, but keeps the lines printed before a non-zero exit. */
function gitLines(cwd: string, args: string[], timeoutMs: number): Promise<string[] | undefined> {
  return new Promise((resolve) => {
    childProcess().execFile(
      'git',
      args,
      { cwd, timeout: Math.max(1, Math.floor(timeoutMs)), env: { ...process.env, GIT_OPTIONAL_LOCKS: '0' } },
      (err, stdout) => {
        const lines = String(stdout ?? '')
          .split('\n')
          .filter(Boolean);
        resolve(err && (err as { code?: unknown }).code !== 1 ? undefined : lines);
      },
    );
  });
}

/** `https://user:secret@host/x` → `https://user@host/x`: the server needs no password (nor should see it). */
export function withoutPassword(url: string): string {
  return url.replace(/^([a-z][a-z0-9+.-]*:\/\/)([^/@:]*):[^/@]*@/i, '$1$2@');
}

/** The project to name: CAIRN_PROJECT, else the origin remote, else the repository's root. */
export function projectOf(configured: string | undefined, repo: Repo | undefined): string | undefined {
  return configured ?? repo?.origin ?? repo?.root;
}

/**
 * The working tree's uncommitted state: a fingerprint of `git status`, and the paths it lists.
 * Untracked files count; ignored ones do not.
 */
export async function dirtyState(
  root: string,
  timeoutMs: number,
): Promise<{ fingerprint: string; paths: string[] } | undefined> {
  const out = await git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all'], timeoutMs);
  if (out === undefined) return undefined;
  const { createHash } = process.getBuiltinModule('node:crypto');
  return { fingerprint: createHash('sha256').update(out).digest('hex').slice(0, 32), paths: statusPaths(out) };
}

/** The paths of `git status --porcelain=v1 -z` (a rename's new path; its old one follows and is skipped). */
export function statusPaths(out: string): string[] {
  const fields = out.split('\0');
  const paths: string[] = [];
  for (let i = 0; i < fields.length; i++) {
    const f = fields[i] as string;
    if (f.length < 4) continue;
    paths.push(f.slice(3));
    if (f[0] === 'R' || f[0] === 'C') i++;
  }
  return paths;
}

/**
 * Whether the session changed files: HEAD moved, or the uncommitted state differs from the one at
 * its start, or a file it lists was written since the start (an edit to a file already modified).
 */
export async function changedSince(
  root: string,
  start: { head: string | null; dirty: string | null; at: number },
  timeoutMs: number,
): Promise<boolean | undefined> {
  const [now, dirty] = await Promise.all([
    gitLines(root, ['rev-parse', '--verify', '-q', 'HEAD'], timeoutMs),
    dirtyState(root, timeoutMs),
  ]);
  if (now === undefined || dirty === undefined) return undefined;
  if ((now[0] ?? null) !== start.head) return true;
  if (dirty.fingerprint !== start.dirty) return true;
  return dirty.paths.some((p) => {
    try {
      return statSync(join(root, p)).mtimeMs >= start.at;
    } catch {
      return false; // deleted: the fingerprint changed when it was
    }
  });
}
