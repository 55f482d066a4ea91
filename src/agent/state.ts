/**
 * What the hooks remember about a session between their runs, in one small JSON file per session
 * under the cache directory: when it started and from which commit, the entries already injected,
 * and whether the stop hook has asked. Written whole to a temporary file and renamed over the old
 * one, so a reader never sees half a file; files untouched for a week are removed.
 */
import { createHash, randomBytes } from 'node:crypto';
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

/** Ids kept at most: a long session's oldest injections are forgotten first. */
const MAX_INJECTED = 1000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

/** A session's state file: its id hashed (an id from the client never becomes a path by itself). */
function fileOf(dir: string, sessionId: string): string {
  return join(dir, 'sessions', `${createHash('sha256').update(sessionId).digest('hex').slice(0, 32)}.json`);
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
  const tmp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  const kept = { ...state, injected: state.injected.slice(-MAX_INJECTED) };
  try {
    writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Removes state files (and stray temporaries) untouched for a week. */
export function pruneStates(dir: string, now = Date.now()): void {
  const sessions = join(dir, 'sessions');
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
}
