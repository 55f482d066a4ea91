/**
 * The agent side's configuration, read from the environment (CONTRACT §10):
 *   CAIRN_URL           the server's base URL or its /mcp URL (required)
 *   CAIRN_KEY           an API key, `svc_…` (sent as X-Svc-Key), or an OAuth access token (sent
 *                       as Authorization: Bearer) (required)
 *   CAIRN_AGENT         the agent's name (X-Svc-Agent); unset: the key's bound agent, else `default`
 *   CAIRN_PROJECT       the project (X-Svc-Project); unset: the working directory's git remote
 *                       `origin`, else its repository root; none outside a repository
 *   CAIRN_BRIEF_BUDGET  characters the session-start hook injects at most (default 6000)
 *   CAIRN_STOP_HOOK     `off`: the stop hook never asks the agent to record
 *   XDG_CACHE_HOME      the hooks keep a small state file per session in $XDG_CACHE_HOME/cairn
 *                       (default ~/.cache/cairn)
 */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** A failure the agent-side commands report as one line (never a stack trace). */
export class AgentError extends Error {}

export interface AgentConfig {
  /** The /mcp endpoint. */
  mcpUrl: string;
  key: string;
  agent: string | undefined;
  /** Set by CAIRN_PROJECT; else found from git where the command runs (project.ts). */
  project: string | undefined;
}

type Env = Record<string, string | undefined>;

/** The server and credentials, or an AgentError naming the variable to set. */
export function readConfig(env: Env): AgentConfig {
  const url = env.CAIRN_URL?.trim();
  if (!url) {
    throw new AgentError("CAIRN_URL is not set: set it to the Cairn server's URL (e.g. https://cairn.example.com)");
  }
  const key = env.CAIRN_KEY?.trim();
  if (!key) throw new AgentError('CAIRN_KEY is not set: set it to an API key of your org (svc_…)');
  return {
    mcpUrl: mcpUrlOf(url),
    key: printable(key, 'CAIRN_KEY'),
    agent: printable(env.CAIRN_AGENT?.trim() || undefined, 'CAIRN_AGENT'),
    project: printable(env.CAIRN_PROJECT?.trim() || undefined, 'CAIRN_PROJECT'),
  };
}

/** A header's value: no control characters (a line break would end the header). */
function printable<T extends string | undefined>(value: T, name: string): T {
  if (value && /[\u0000-\u001f\u007f]/.test(value)) throw new AgentError(`${name} must not contain control characters`);
  return value;
}

/** `https://host`, `https://host/` and `https://host/mcp` all mean `https://host/mcp`. */
export function mcpUrlOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new AgentError(`CAIRN_URL is not a URL: ${JSON.stringify(raw)} (e.g. https://cairn.example.com)`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new AgentError(`CAIRN_URL must be an http or https URL, not ${url.protocol}`);
  }
  const path = url.pathname.replace(/\/+$/, '');
  url.pathname = path.endsWith('/mcp') ? path : `${path}/mcp`;
  url.search = '';
  url.hash = '';
  return url.toString();
}

/** CAIRN_BRIEF_BUDGET: what session-start injects at most, header and wrapping included. */
export function briefBudget(env: Env): number {
  const raw = env.CAIRN_BRIEF_BUDGET?.trim();
  const n = raw ? Number(raw) : DEFAULT_BRIEF_BUDGET;
  // Claude Code keeps a context of up to 10,000 characters inline; past that the model gets a
  // 2 KB preview and a file path (docs/design.md, "The agent side")
  if (!Number.isInteger(n) || n < 1000 || n > 9000) {
    throw new AgentError('CAIRN_BRIEF_BUDGET must be a whole number of characters from 1000 to 9000');
  }
  return n;
}
export const DEFAULT_BRIEF_BUDGET = 6000;

export const stopHookOff = (env: Env) => env.CAIRN_STOP_HOOK?.trim().toLowerCase() === 'off';

/** Where the hooks keep their per-session state. */
export function cacheDir(env: Env): string {
  const base = env.XDG_CACHE_HOME?.trim() || join(env.HOME?.trim() || homedir(), '.cache');
  return join(base, 'cairn');
}
