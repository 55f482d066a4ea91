/**
 * The package as npm installs it (issue 40.7): `npm pack` gives a tarball of the compiled command
 * (bin, dist, drizzle, sql) that, installed into an empty folder from the registry's packages,
 * starts `cairn serve` on the embedded database and answers a tool call, and whose `cairn hook`
 * — as Claude Code runs it, its hook JSON on stdin — puts an entry written before in front of the
 * model at session start and on a prompt that asks about it. Nothing of it compiles TypeScript,
 * nothing outside the tarball is read.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnv, cairn, claude, contextOf, tempRepo } from './helpers/agent';
import { headersFor, rawPost, toolCall } from './helpers/clients';
import { type Serving, serve, stop } from './helpers/serve-cli';

const ROOT = join(import.meta.dirname, '..');
const npm = (args: string[], cwd: string) =>
  execFileSync('npm', args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, npm_config_yes: 'true' },
    timeout: 300_000,
  });

describe('the npm package', () => {
  let dir: string;
  let tarball: string;
  let files: string[];

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-pack-'));
    // prepack builds dist/ and says so before the JSON
    const out = npm(['pack', '--json', '--pack-destination', dir], ROOT);
    const packed = JSON.parse(out.slice(out.indexOf('\n[') + 1)) as {
      filename: string;
      files: { path: string }[];
    }[];
    tarball = join(dir, packed[0]?.filename as string);
    files = (packed[0]?.files ?? []).map((f) => f.path);
    const app = join(dir, 'app');
    execFileSync('mkdir', [app]);
    writeFileSync(join(app, 'package.json'), '{"name": "uses-cairn", "private": true}\n');
    npm(['install', '--no-audit', '--no-fund', tarball], app);
  }, 400_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the compiled command and what it reads, and no TypeScript source', () => {
    expect(tarball).toMatch(/cairn-mcp-\d+\.\d+\.\d+\.tgz$/);
    expect(files).toEqual(
      expect.arrayContaining([
        'bin/cairn.js',
        'dist/cli.js',
        'dist/agent.cjs',
        'drizzle/meta/_journal.json',
        'package.json',
      ]),
    );
    expect(files.filter((f) => f.startsWith('sql/')).length).toBeGreaterThan(50);
    expect(files.filter((f) => /\.tsx?$/.test(f) || f.startsWith('src/') || f.startsWith('test/'))).toEqual([]);
    // tsx is the sources' runner, not a dependency of the command
    expect(readdirSync(join(dir, 'app', 'node_modules'))).not.toContain('tsx');
  });

  it('installed into an empty folder, serves on the embedded database, answers a tool call, and its hooks inject what was written', {
    timeout: 120_000,
  }, async () => {
    const bin = join(dir, 'app', 'node_modules', '.bin', 'cairn');
    const remote = 'https://github.com/acme/shop.git';
    const repo = tempRepo(remote);
    let s: Serving | undefined;
    try {
      s = await serve({ CAIRN_DATA_DIR: join(dir, 'data') }, { key: true, link: false }, undefined, bin);
      const res = await rawPost(
        `${s.url}/mcp`,
        toolCall('remember', { content: 'Checkout retries the payment capture twice', tags: ['convention'] }),
        headersFor({ key: s.key as string, agent: 'packer', project: remote }),
      );
      expect(res.status).toBe(200);
      const r = (await res.json()) as { result: { isError?: boolean; content: { text: string }[] } };
      expect(r.result.isError ?? false).toBe(false);
      expect(r.result.content[0]?.text).toMatch(/^Remembered /);

      const env = await agentEnv(s.url, s.key as string, { CAIRN_AGENT: 'claude-code', CLAUDE_PROJECT_DIR: repo.dir });
      const hook = (event: string, payload: unknown) =>
        cairn(['hook', event], { cwd: repo.dir, env, stdin: JSON.stringify(payload), bin });
      const started = await hook('session-start', claude.sessionStart('s-1', repo.dir));
      expect(started).toMatchObject({ code: 0, stderr: '' });
      const brief = contextOf(started.stdout, 'SessionStart');
      expect(brief).toMatch(/^You are agent "claude-code" in project github\.com\/acme\/shop\./);
      expect(brief).toMatch(/\[memory, packer, \d{4}-\d\d-\d\d\] Checkout retries the payment capture twice/);
      // a session the brief did not open: the prompt's recall brings the entry
      const prompt = claude.userPrompt('s-2', repo.dir, 'how does checkout retry the payment capture?');
      const asked = await hook('user-prompt', prompt);
      expect(asked).toMatchObject({ code: 0, stderr: '' });
      expect(contextOf(asked.stdout, 'UserPromptSubmit')).toMatch(
        /\[memory, packer, \d{4}-\d\d-\d\d, id [0-9a-f-]{36}\] Checkout retries the payment capture twice/,
      );
      rmSync(env.HOME as string, { recursive: true, force: true });
    } finally {
      if (s) await stop(s);
      repo.remove();
    }
  });
});
