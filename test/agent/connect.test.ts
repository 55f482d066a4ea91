/**
 * `cairn connect` (src/agent/connect.ts): what each client's files hold after it, merged into what
 * was there, the same after a second run, never the key, refused when a file does not parse, and
 * taken out again by --uninstall leaving the rest.
 */
// biome-ignore-all lint/suspicious/noTemplateCurlyInString: the files hold the clients' own ${VAR} placeholders
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applyConnect,
  type Client,
  ConnectError,
  type ConnectSetup,
  planConnect,
  withoutTomlTable,
} from '../../src/agent/connect';

const KEY = 'cairn_live_example_key_never_written';
let dir: string;
let root: string;
let home: string;

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-connect-'));
  root = join(dir, 'repo');
  home = join(dir, 'home');
  mkdirSync(join(root, '.git', 'info'), { recursive: true });
  mkdirSync(home, { recursive: true });
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const setup = (client: Client, over: Partial<ConnectSetup> = {}): ConnectSetup => ({
  client,
  user: false,
  uninstall: false,
  root,
  home,
  mcpUrl: 'http://127.0.0.1:8787/mcp',
  project: 'https://github.com/acme/shop.git',
  agent: 'claude-code',
  command: "'/usr/bin/node' '/opt/cairn/bin/cairn.js'",
  ...over,
});
const run = (s: ConnectSetup) => {
  const changes = planConnect(s);
  applyConnect(changes, home);
  return changes;
};
const jsonAt = (...p: string[]) => JSON.parse(readFileSync(join(...p), 'utf8'));
const allText = (changes: { after: string }[]) => changes.map((c) => c.after).join('\n');

describe('cairn connect claude-code', () => {
  it('writes the server to .mcp.json and the hooks to the personal settings, kept out of git', () => {
    const changes = run(setup('claude-code'));
    expect(changes.map((c) => c.path.slice(root.length))).toEqual([
      '/.mcp.json',
      '/.claude/settings.local.json',
      '/.git/info/exclude',
    ]);
    expect(jsonAt(root, '.mcp.json')).toEqual({
      mcpServers: {
        cairn: {
          type: 'http',
          url: 'http://127.0.0.1:8787/mcp',
          headers: {
            'X-Svc-Key': '${CAIRN_KEY}',
            'X-Svc-Agent': '${CAIRN_AGENT:-claude-code}',
            'X-Svc-Project': 'https://github.com/acme/shop.git',
          },
        },
      },
    });
    const settings = jsonAt(root, '.claude', 'settings.local.json');
    expect(Object.keys(settings.hooks)).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop']);
    expect(settings.hooks.UserPromptSubmit).toEqual([
      {
        hooks: [
          {
            type: 'command',
            command: `CAIRN_URL=http://127.0.0.1:8787/mcp CAIRN_AGENT="\${CAIRN_AGENT:-claude-code}" '/usr/bin/node' '/opt/cairn/bin/cairn.js' hook user-prompt`,
            timeout: 5,
          },
        ],
      },
    ]);
    expect(settings.permissions).toEqual({ allow: ['mcp__cairn'] });
    expect(settings.enabledMcpjsonServers).toEqual(['cairn']);
    expect(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8')).toBe('/.claude/settings.local.json\n');
    expect(allText(changes)).not.toContain(KEY);
  });

  it("merges into what is there, keeps others' hooks and servers, and changes nothing on a second run", () => {
    mkdirSync(join(root, '.claude'));
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { github: { type: 'http', url: 'x' } } }));
    const theirs = { type: 'command', command: 'prettier --check .' };
    writeFileSync(
      join(root, '.claude', 'settings.local.json'),
      JSON.stringify({ model: 'opus', hooks: { Stop: [{ hooks: [theirs] }] }, permissions: { deny: ['Bash(rm:*)'] } }),
    );
    writeFileSync(join(root, '.git', 'info', 'exclude'), '# git ls-files --others --exclude-from=.git/info/exclude\n');
    run(setup('claude-code'));
    expect(Object.keys(jsonAt(root, '.mcp.json').mcpServers)).toEqual(['github', 'cairn']);
    const settings = jsonAt(root, '.claude', 'settings.local.json');
    expect(settings.model).toBe('opus');
    expect(settings.permissions).toEqual({ deny: ['Bash(rm:*)'], allow: ['mcp__cairn'] });
    expect(settings.hooks.Stop[0]).toEqual({ hooks: [theirs] });
    expect(settings.hooks.Stop).toHaveLength(2);
    // a second run, even with another command path, replaces Cairn's own entries and nothing else
    expect(planConnect(setup('claude-code'))).toEqual([]);
    run(setup('claude-code', { command: '/usr/local/bin/cairn' }));
    const again = jsonAt(root, '.claude', 'settings.local.json');
    expect(again.hooks.Stop).toHaveLength(2);
    expect(again.hooks.Stop[1].hooks[0].command).toContain('/usr/local/bin/cairn hook stop');
    expect(readFileSync(join(root, '.git', 'info', 'exclude'), 'utf8').match(/settings\.local/g)).toHaveLength(1);
  });

  it('refuses a file that does not parse and writes nothing', () => {
    writeFileSync(join(root, '.mcp.json'), '{"mcpServers": {');
    expect(() => planConnect(setup('claude-code'))).toThrow(ConnectError);
    expect(() => planConnect(setup('claude-code'))).toThrow(/\.mcp\.json is not valid JSON .*fix or move it/);
    expect(readFileSync(join(root, '.mcp.json'), 'utf8')).toBe('{"mcpServers": {');
  });

  it('--user writes the user files, without the project, keeping their mode', () => {
    writeFileSync(join(home, '.claude.json'), JSON.stringify({ numStartups: 3, projects: {} }), { mode: 0o600 });
    run(setup('claude-code', { user: true }));
    const user = jsonAt(home, '.claude.json');
    expect(user.numStartups).toBe(3);
    expect(user.mcpServers.cairn.headers['X-Svc-Project']).toBeUndefined();
    expect(statSync(join(home, '.claude.json')).mode & 0o777).toBe(0o600);
    expect(Object.keys(jsonAt(home, '.claude', 'settings.json').hooks)).toHaveLength(3);
    expect(jsonAt(home, '.claude', 'settings.json').enabledMcpjsonServers).toBeUndefined();
  });

  it('--uninstall takes out only what is Cairn', () => {
    writeFileSync(join(root, '.mcp.json'), JSON.stringify({ mcpServers: { github: { url: 'x' } } }));
    run(setup('claude-code'));
    run(setup('claude-code', { uninstall: true }));
    expect(jsonAt(root, '.mcp.json')).toEqual({ mcpServers: { github: { url: 'x' } } });
    expect(jsonAt(root, '.claude', 'settings.local.json')).toEqual({});
    // nothing to take out: no file is made
    rmSync(join(root, '.claude'), { recursive: true });
    expect(planConnect(setup('claude-code', { uninstall: true }))).toEqual([]);
  });
});

describe('cairn connect codex', () => {
  it('adds [mcp_servers.cairn] with the key read from its variable, and the hooks in Codex shape', () => {
    mkdirSync(join(root, '.codex'));
    writeFileSync(
      join(root, '.codex', 'config.toml'),
      'model = "o4"\n\n[mcp_servers.cairn]\nurl = "http://old/mcp"\n\n[mcp_servers.cairn.env]\nX = "1"\n\n[mcp_servers.github]\nurl = "g"\n',
    );
    const changes = run(setup('codex', { agent: 'codex' }));
    const toml = readFileSync(join(root, '.codex', 'config.toml'), 'utf8');
    expect(toml).toBe(
      'model = "o4"\n\n[mcp_servers.github]\nurl = "g"\n\n[mcp_servers.cairn]\nurl = "http://127.0.0.1:8787/mcp"\nenv_http_headers = { "X-Svc-Key" = "CAIRN_KEY", "X-Svc-Agent" = "CAIRN_AGENT" }\nhttp_headers = { "X-Svc-Agent" = "codex", "X-Svc-Project" = "https://github.com/acme/shop.git" }\n',
    );
    const hooks = jsonAt(root, '.codex', 'hooks.json');
    expect(Object.keys(hooks)).toEqual(['hooks']);
    expect(hooks.hooks.SessionStart[0].hooks[0].command).toMatch(/ hook session-start --client codex$/);
    expect(allText(changes)).not.toContain(KEY);
    expect(planConnect(setup('codex', { agent: 'codex' }))).toEqual([]);
    run(setup('codex', { agent: 'codex', uninstall: true }));
    expect(readFileSync(join(root, '.codex', 'config.toml'), 'utf8')).toBe(
      'model = "o4"\n\n[mcp_servers.github]\nurl = "g"\n',
    );
    expect(jsonAt(root, '.codex', 'hooks.json')).toEqual({ hooks: {} });
  });

  it('keeps a TOML table that only starts like Cairn', () => {
    expect(withoutTomlTable('[mcp_servers.cairnish]\na = 1\n[mcp_servers.cairn]\nb = 2\n', 'mcp_servers.cairn')).toBe(
      '[mcp_servers.cairnish]\na = 1',
    );
  });
});

describe('cairn connect cursor', () => {
  it('writes .cursor/mcp.json with the key by its variable', () => {
    run(setup('cursor', { agent: 'cursor' }));
    expect(jsonAt(root, '.cursor', 'mcp.json').mcpServers.cairn).toEqual({
      url: 'http://127.0.0.1:8787/mcp',
      headers: {
        'X-Svc-Key': '${env:CAIRN_KEY}',
        'X-Svc-Agent': 'cursor',
        'X-Svc-Project': 'https://github.com/acme/shop.git',
      },
    });
  });
});
