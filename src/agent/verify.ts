/**
 * Verified at use: whether the files an entry is anchored to changed since it was written, read
 * off the working tree (the server cannot see the code; CONTRACT §3). For all entries at once,
 * three git calls run together:
 * - `git log --first-parent -m --name-only` over every anchored path since the oldest entry: the
 *   commits on the branch's line that touched them (a merge shows what it brought in);
 * - `git log --no-walk --ignore-missing` of the entries' own commits, for their times;
 * - `git status` of the anchored paths: uncommitted changes.
 * A commit counts against an entry when it is not older than the entry's commit (and is not that
 * commit), when that commit is in this repository, else not older than the entry's creation. An anchor that is a folder covers the
 * files under it.
 */
import { clean } from './block';
import { git } from './git';

export interface Anchored {
  id: string;
  paths?: string[] | null;
  commit?: string | null;
  created_at: string;
}

interface Commit {
  sha: string;
  short: string;
  author: string;
  /** Committer time, seconds since the epoch. */
  time: number;
  day: string;
  files: string[];
}

/** At most this many anchored paths are checked in one go. */
const MAX_PATHS = 400;
const HEX = /^[0-9a-f]{7,64}$/i;
/** Commits a day older than the oldest entry are read too: clocks differ. */
const SLACK_SECONDS = 86_400;

/** For each entry whose anchored files changed since it was written: what changed, as a short mark. */
export async function changeMarks(root: string, entries: Anchored[], timeoutMs: number): Promise<Map<string, string>> {
  const marks = new Map<string, string>();
  const anchored = entries.filter((e) => e.paths?.length);
  const paths = [...new Set(anchored.flatMap((e) => e.paths ?? []))].slice(0, MAX_PATHS);
  if (paths.length === 0) return marks;
  const oldest = Math.min(...anchored.map((e) => Date.parse(e.created_at) / 1000).filter(Number.isFinite));
  const since = Number.isFinite(oldest) ? oldest - SLACK_SECONDS : 0;
  // hex only: a value from memory never reaches git as an option
  const commitsOf = [...new Set(anchored.flatMap((e) => (e.commit && HEX.test(e.commit) ? [e.commit] : [])))];
  const [log, times, status] = await Promise.all([
    git(
      root,
      [
        'log',
        '--first-parent',
        '-m',
        '--name-only',
        '--format=%x1e%H%x1f%h%x1f%an%x1f%ct%x1f%cs',
        `--since=@${Math.floor(since)}`,
        'HEAD',
        '--',
        ...paths,
      ],
      timeoutMs,
    ),
    commitsOf.length
      ? git(root, ['log', '--no-walk', '--ignore-missing', '--format=%H %ct', ...commitsOf], timeoutMs)
      : Promise.resolve(''),
    git(root, ['status', '--porcelain=v1', '-z', '--untracked-files=all', '--', ...paths], timeoutMs),
  ]);
  const commits = log === undefined ? [] : parseLog(log);
  const commitTimes = parseTimes(times ?? '');
  const dirty = status === undefined ? [] : dirtyPaths(status);
  for (const e of anchored) {
    const anchors = e.paths ?? [];
    const own = e.commit && HEX.test(e.commit) ? e.commit.toLowerCase() : undefined;
    const known = own ? timeOf(commitTimes, own) : undefined;
    // commit times are whole seconds: one in the same second as the entry (or its commit) counts
    const after = Math.floor(known ?? Date.parse(e.created_at) / 1000);
    const touching = commits.filter(
      (c) => c.time >= after && !(own && c.sha.startsWith(own)) && c.files.some((f) => covers(anchors, f)),
    );
    const parts: string[] = [];
    const latest = touching[0];
    if (latest) {
      const file = latest.files.find((f) => covers(anchors, f)) as string;
      const more =
        touching.length > 1 ? ` (and ${touching.length - 1} more commit${touching.length > 2 ? 's' : ''})` : '';
      parts.push(`changed since written: ${file} in ${latest.short} by ${latest.author}, ${latest.day}${more}`);
    }
    const changed = dirty.find((f) => covers(anchors, f));
    if (changed) parts.push(`uncommitted changes to ${changed}`);
    // an author's name or a file's is the repository's text, shown in the block like an entry's
    if (parts.length) marks.set(e.id, clean(parts.join('; '), 200));
  }
  return marks;
}

/** Whether `file` is one of the anchors or under one that is a folder. */
function covers(anchors: string[], file: string): boolean {
  return anchors.some((a) => file === a || file.startsWith(`${a}/`));
}

function parseLog(out: string): Commit[] {
  return out
    .split('\x1e')
    .slice(1)
    .map((chunk) => {
      const [head = '', ...rest] = chunk.split('\n');
      const [sha = '', short = '', author = '', time = '0', day = ''] = head.split('\x1f');
      return { sha, short, author, time: Number(time), day, files: rest.map((l) => l.trim()).filter(Boolean) };
    });
}

function parseTimes(out: string): Map<string, number> {
  const times = new Map<string, number>();
  for (const line of out.split('\n')) {
    const [sha, time] = line.split(' ');
    if (sha && time) times.set(sha, Number(time));
  }
  return times;
}

/** An entry's commit may be abbreviated: the full one it begins. */
function timeOf(times: Map<string, number>, commit: string): number | undefined {
  for (const [sha, time] of times) if (sha.startsWith(commit)) return time;
  return undefined;
}

/** The paths of `git status --porcelain=v1 -z` (for a rename, both). */
function dirtyPaths(out: string): string[] {
  return out
    .split('\0')
    .filter((f) => f.length > 3)
    .map((f) => (/^[ MADRCU?!]{2} /.test(f) ? f.slice(3) : f));
}
