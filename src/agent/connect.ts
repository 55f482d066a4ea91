/**
 * `cairn connect CLIENT [--user] [--print] [--uninstall]`: sets a client up to use Cairn — its MCP
 * server entry and, where the client has hooks that reach the model, the hooks (docs/design.md,
 * "The agent side"). What it writes, per client:
 *
 *   claude-code  .mcp.json (the server; shareable: X-Svc-Key is `${CAIRN_KEY}`, expanded by Claude Code)
 *                .claude/settings.local.json (the hooks, the server approved, its tools allowed;
 *                personal: the hooks run this machine's `cairn` by its path, so the file is kept
 *                out of git through .git/info/exclude)
 *                --user: ~/.claude.json (the server) and ~/.claude/settings.json
 *   codex        .codex/config.toml ([mcp_servers.cairn]: X-Svc-Key from CAIRN_KEY and X-Svc-Agent from
 *                CAIRN_AGENT by `env_http_headers`, the default agent in `http_headers`) and
 *                .codex/hooks.json; --user: the same under ~/.codex
 *   cursor       .cursor/mcp.json (`${env:CAIRN_KEY}`); --user: ~/.cursor/mcp.json. No hooks: Cursor's
 *                prompt hook cannot add context.
 *
 * The key is never written anywhere: every file names the variable it is read from. Existing files
 * are merged, never replaced: what is not Cairn's stays as it was, Cairn's own entries (found by
 * their name, or for hooks by the command) are replaced, so a second run changes nothing. A file
 * that does not parse is refused and left alone. Each file is written whole to a temporary file
 * beside it and renamed over it, keeping its mode.
 */
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export const CLIENTS = ['claude-code', 'codex', 'cursor'] as const;
export type Client = (typeof CLIENTS)[number];

export interface ConnectSetup {
  client: Client;
  /** The user's own configuration instead of the repository's. */
  user: boolean;
  /** Take Cairn's entries out instead of putting them in. */
  uninstall: boolean;
  /** The repository's root (project files) and the user's home (user files). */
  root: string;
  home: string;
  /** The server's MCP endpoint. */
  mcpUrl: string;
  /** The project the repository is (X-Svc-Project), or null; never written into user files. */
  project: string | null;
  /** The agent name the client acts as when CAIRN_AGENT is not set where it runs. */
  agent: string;
  /** How a hook runs this command: the shell words of the executable (quoted). */
  command: string;
}

/** One file as it is and as connect leaves it. */
export interface FileChange {
  path: string;
  before: string | null;
  after: string;
}

export class ConnectError extends Error {}

const SERVER = 'cairn';
/** A hook command is Cairn's when it runs `… hook <event>` of a cairn command. */
const OURS = /cairn\S*['"]?\s+hook\s+(session-start|user-prompt|stop)\b/;
/** Hook events and their limits (seconds): the command keeps its own deadline well inside them. */
const HOOKS: [event: string, arg: string, timeout: number][] = [
  ['SessionStart', 'session-start', 10],
  ['UserPromptSubmit', 'user-prompt', 5],
  ['Stop', 'stop', 10],
];

/** The files a setup writes, each as it would be after connect; files that would not change are left out. */
export function planConnect(s: ConnectSetup): FileChange[] {
  const changes = s.client === 'claude-code' ? claudeCode(s) : s.client === 'codex' ? codex(s) : cursor(s);
  // uninstalling makes no file
  return changes.filter((c) => c.after !== c.before && !(s.uninstall && c.before === null));
}

/** Writes each change whole, atomically, keeping the file's mode (new files: 0600 in the home, else 0644). */
export function applyConnect(changes: FileChange[], home: string): void {
  for (const c of changes) {
    mkdirSync(dirname(c.path), { recursive: true });
    const mode = existsSync(c.path) ? statSync(c.path).mode & 0o777 : c.path.startsWith(home) ? 0o600 : 0o644;
    const tmp = `${c.path}.cairn-${process.pid}.tmp`;
    writeFileSync(tmp, c.after, { mode });
    chmodSync(tmp, mode);
    renameSync(tmp, c.path);
  }
}

function read(path: string): string | null {
  return existsSync(path) ? readFileSync(path, 'utf8') : null;
}

type Json = Record<string, unknown>;

function readJson(path: string): { text: string | null; value: Json } {
  const text = read(path);
  if (text === null || text.trim() === '') return { text, value: {} };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw new ConnectError(`${path} is not valid JSON (${(e as Error).message}); fix or move it, then run again`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new ConnectError(`${path} does not hold a JSON object; fix or move it, then run again`);
  }
  return { text, value: value as Json };
}

const object = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});
const json = (v: Json) => `${JSON.stringify(v, null, 2)}\n`;

/** `servers[cairn] = entry` (or out, on uninstall) in the object at `key` of a JSON file. */
function withServer(path: string, key: string, entry: Json, uninstall: boolean): FileChange {
  const { text, value } = readJson(path);
  const servers = { ...object(value[key]) };
  if (uninstall) delete servers[SERVER];
  else servers[SERVER] = entry;
  const after = { ...value, [key]: servers };
  if (uninstall && Object.keys(servers).length === 0) delete after[key];
  return { path, before: text, after: json(after) };
}

/** A hooks object (Claude Code's and Codex's shape) without Cairn's handlers, then with them unless uninstalling. */
function withHooks(hooks: Json, s: ConnectSetup, extra: string): Json {
  const out: Json = {};
  for (const [event, groups] of Object.entries(hooks)) {
    const kept = (Array.isArray(groups) ? groups : [])
      .map((g) => {
        const group = object(g);
        const handlers = (Array.isArray(group.hooks) ? group.hooks : []).filter(
          (h) => !OURS.test(String(object(h).command ?? '')),
        );
        return { ...group, hooks: handlers };
      })
      .filter((g) => g.hooks.length > 0);
    if (kept.length) out[event] = kept;
  }
  if (s.uninstall) return out;
  for (const [event, arg, timeout] of HOOKS) {
    const handler = { type: 'command', command: hookCommand(s, arg, extra), timeout };
    out[event] = [...((out[event] as Json[] | undefined) ?? []), { hooks: [handler] }];
  }
  return out;
}

/** A hook's shell command: the server and the default agent set for it, then `cairn hook EVENT`. */
function hookCommand(s: ConnectSetup, event: string, extra: string): string {
  return `CAIRN_URL=${shellQuote(s.mcpUrl)} CAIRN_AGENT="\${CAIRN_AGENT:-${s.agent}}" ${s.command} hook ${event}${extra}`;
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

function claudeCode(s: ConnectSetup): FileChange[] {
  const headers: Json = {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: Claude Code expands it from its environment
    'X-Svc-Key': '${CAIRN_KEY}',
    'X-Svc-Agent': `\${CAIRN_AGENT:-${s.agent}}`,
  };
  if (!s.user && s.project) headers['X-Svc-Project'] = s.project;
  const server = { type: 'http', url: s.mcpUrl, headers };
  const serverFile = s.user ? join(s.home, '.claude.json') : join(s.root, '.mcp.json');
  const settingsFile = s.user
    ? join(s.home, '.claude', 'settings.json')
    : join(s.root, '.claude', 'settings.local.json');
  const { text, value } = readJson(settingsFile);
  const settings: Json = { ...value, hooks: withHooks(object(value.hooks), s, '') };
  const permissions = { ...object(settings.permissions) };
  permissions.allow = withItem(permissions.allow, 'mcp__cairn', s.uninstall);
  settings.permissions = permissions;
  // a project's .mcp.json server runs once approved: this user approves Cairn's here
  if (!s.user) settings.enabledMcpjsonServers = withItem(settings.enabledMcpjsonServers, SERVER, s.uninstall);
  // what connect would leave empty is not left at all
  for (const [o, k] of [
    [permissions, 'allow'],
    [settings, 'permissions'],
    [settings, 'hooks'],
    [settings, 'enabledMcpjsonServers'],
  ] as [Json, string][]) {
    const v = o[k];
    if (v !== undefined && (Array.isArray(v) ? v.length === 0 : Object.keys(object(v)).length === 0)) delete o[k];
  }
  const changes = [
    withServer(serverFile, 'mcpServers', server, s.uninstall),
    { path: settingsFile, before: text, after: json(settings) },
  ];
  if (!s.user) changes.push(...excluded(s.root, '.claude/settings.local.json'));
  return changes;
}

/** A list (a JSON array or nothing) with `item` once at its end, or without it. */
function withItem(list: unknown, item: string, out: boolean): unknown[] {
  const kept = (Array.isArray(list) ? list : []).filter((x) => x !== item);
  return out ? kept : [...kept, item];
}

/** The repository's own ignore list (.git/info/exclude, never committed) with `entry` in it. */
function excluded(root: string, entry: string): FileChange[] {
  const git = join(root, '.git');
  if (!existsSync(git) || !statSync(git).isDirectory()) return [];
  const path = join(git, 'info', 'exclude');
  const before = read(path);
  const lines = (before ?? '').split('\n');
  if (lines.includes(`/${entry}`) || lines.includes(entry)) return [];
  const after = `${before ?? ''}${before && !before.endsWith('\n') ? '\n' : ''}/${entry}\n`;
  return [{ path, before, after }];
}

function codex(s: ConnectSetup): FileChange[] {
  const dir = s.user ? join(s.home, '.codex') : join(s.root, '.codex');
  const configPath = join(dir, 'config.toml');
  const before = read(configPath);
  const kept = withoutTomlTable(before ?? '', `mcp_servers.${SERVER}`);
  const table = [
    `[mcp_servers.${SERVER}]`,
    `url = ${tomlString(s.mcpUrl)}`,
    // header name -> the variable Codex reads its value from; Codex sets these after http_headers and
    // skips an unset or blank one, so X-Svc-Agent is CAIRN_AGENT where Codex runs, else the default
    // below: the agent the hooks act as (`${CAIRN_AGENT:-agent}`), or the stop hook would not see
    // the session's own writes
    'env_http_headers = { "X-Svc-Key" = "CAIRN_KEY", "X-Svc-Agent" = "CAIRN_AGENT" }',
    `http_headers = { ${[['X-Svc-Agent', s.agent], ...(!s.user && s.project ? [['X-Svc-Project', s.project]] : [])]
      .map(([k, v]) => `${tomlString(k as string)} = ${tomlString(v as string)}`)
      .join(', ')} }`,
  ].join('\n');
  const base = kept.replace(/\s+$/, '');
  const config = s.uninstall ? (base ? `${base}\n` : '') : `${base ? `${base}\n\n` : ''}${table}\n`;
  const hooksPath = join(dir, 'hooks.json');
  const { text, value } = readJson(hooksPath);
  // Codex refuses a hooks file with any root key but description and hooks
  const hooks: Json = { ...(value.description ? { description: value.description } : {}) };
  hooks.hooks = withHooks(object(value.hooks), s, ' --client codex');
  return [
    { path: configPath, before, after: config },
    { path: hooksPath, before: text, after: json(hooks) },
  ];
}

/** A TOML document without one table (its header line to the next table header) and its sub-tables. */
export function withoutTomlTable(toml: string, name: string): string {
  const lines = toml.split('\n');
  const out: string[] = [];
  let skipping = false;
  for (const line of lines) {
    const header = /^\s*\[\[?\s*([^\]]+?)\s*\]\]?\s*(#.*)?$/.exec(line);
    if (header) {
      const n = (header[1] as string).replace(/\s+/g, '');
      skipping = n === name || n.startsWith(`${name}.`);
    }
    if (!skipping) out.push(line);
  }
  return out.join('\n');
}

const tomlString = (v: string) => JSON.stringify(v);

function cursor(s: ConnectSetup): FileChange[] {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: Cursor expands it from its environment
  const headers: Json = { 'X-Svc-Key': '${env:CAIRN_KEY}', 'X-Svc-Agent': s.agent };
  if (!s.user && s.project) headers['X-Svc-Project'] = s.project;
  const path = s.user ? join(s.home, '.cursor', 'mcp.json') : join(s.root, '.cursor', 'mcp.json');
  return [withServer(path, 'mcpServers', { url: s.mcpUrl, headers }, s.uninstall)];
}

/** What to do next, after the files are written: the gates each client keeps. */
export function nextSteps(s: ConnectSetup, keySet: boolean): string[] {
  const steps: string[] = [];
  if (!keySet) {
    steps.push(
      'CAIRN_KEY is not set in this shell. Export it where the client starts (your shell profile): the files name the variable, never the key.',
    );
  }
  if (s.uninstall) return steps;
  if (s.client === 'claude-code') {
    steps.push(
      'Start Claude Code in this repository: the brief arrives at session start; /mcp shows the cairn server.',
    );
  } else if (s.client === 'codex') {
    steps.push(
      'Codex runs new hooks only once you trust them: start codex, open /hooks and trust the three Cairn hooks.',
    );
    if (!s.user) steps.push('Project files under .codex load only in a trusted project (codex asks on first start).');
  } else {
    steps.push(
      'Cursor reads the variable from its own environment: start it from a shell where CAIRN_KEY is set. Cursor has no hook that adds context to a prompt, so ask it to start with the cairn brief.',
    );
  }
  return steps;
}
