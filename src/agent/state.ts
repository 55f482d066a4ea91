/**
 * What the hooks remember about a session between their runs, in one small JSON file per session
 * under the cache directory: when it started and from which commit, the entries already injected,
 * and whether the stop hook has asked. Written whole to a temporary file and renamed over the old
 * one, so a reader never sees half a file; files untouched for a week are removed.
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export interface SessionState {
  v: 1;
  /** When the session started (the server's clock when known): the ledger is read from then. */
  started_at: string;
  /** The local clock at the start (ms): files written since count as changed. */
  started_ms: number;
  /** The repository root, HEAD and `git status` fingerprint at the start (null: none). */
  root: string | null;
  head: string | null;
  dirty: string | null;
  /** The project the session names (null: org-wide) and the agent it acts as. */
  project?: string | null | undefined;
  agent?: string | undefined;
  /** How many entries the org holds, for the relevance bar (relevance.ts). */
  entries?: number | undefined;
  /** Ids already injected in this session's context. */
  injected: string[];
  /** The stop hook asked the agent to record, or saw it record: it never asks again. */
  stop_done?: boolean | undefined;
}

/**
 * When a session started, to read the ledger from, on the server's clock: its Date header (else
 * ours) — which counts whole seconds, so a write made in the same second before the session began
 * would pass for the session's own — or just after the org's latest event the session start read
 * (`space` overview's `recent`, to the millisecond), whichever is later.
 */
export function startedAt(serverDate: Date | undefined, recent: unknown): string {
  const header = (serverDate ?? new Date()).getTime();
  const latest = Array.isArray(recent)
    ? Date.parse(String((recent[0] as { at?: unknown } | undefined)?.at))
    : Number.NaN;
  return new Date(Number.isNaN(latest) ? header : Math.max(header, latest + 1)).toISOString();
}

/** Ids kept at most: a long session's oldest injections are forgotten first. */
const MAX_INJECTED = 1000;
const DAY_MS = 24 * 3600 * 1000;
const WEEK_MS = 7 * DAY_MS;

/**
 * A session's state file. The clients' ids (UUIDs) name it as they are; any other id is hashed
 * (its name then holds a dot, which a plain id cannot), so an id never becomes a path by itself.
 * No hash for a plain id: node:crypto costs a prompt's hook 5 ms to load.
 */
function fileOf(dir: string, sessionId: string): string {
  const name = /^[a-z0-9_-]{1,100}$/.test(sessionId)
    ? sessionId
    : `${process.getBuiltinModule('node:crypto').createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.sha256`;
  return join(dir, 'sessions', `${name}.json`);
}

export function loadState(dir: string, sessionId: string): SessionState | undefined {
  try {
    const s = JSON.parse(readFileSync(fileOf(dir, sessionId), 'utf8')) as SessionState;
    return s?.v === 1 && Array.isArray(s.injected) ? s : undefined;
  } catch {
    return undefined;
  }
}

export function saveState(dir: string, sessionId: string, state: SessionState): void {
  const file = fileOf(dir, sessionId);
  mkdirSync(join(dir, 'sessions'), { recursive: true, mode: 0o700 });
  // a hook writes once: its process id and the time make the temporary file its own
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  const kept = { ...state, injected: state.injected.slice(-MAX_INJECTED) };
  try {
    writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/**
 * Removes state files (and stray temporaries) untouched for a week — at most once a day (a marker
 * file's time says when it last ran): a session start would otherwise stat every file each time.
 */
export function pruneStates(dir: string, now = Date.now()): void {
  const sessions = join(dir, 'sessions');
  const marker = join(sessions, '.pruned');
  try {
    if (now - statSync(marker).mtimeMs < DAY_MS) return;
  } catch {} // never pruned yet
  let names: string[];
  try {
    names = readdirSync(sessions);
  } catch {
    return;
  }
  for (const name of names) {
    const path = join(sessions, name);
    try {
      if (now - statSync(path).mtimeMs > WEEK_MS) rmSync(path, { force: true });
    } catch {} // gone meanwhile
  }
  try {
    writeFileSync(marker, '');
  } catch {} // the next start tries again
}
