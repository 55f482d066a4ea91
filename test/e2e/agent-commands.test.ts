/**
 * The agent-side commands (CONTRACT §10) end to end on every target: `cairn brief`, `cairn recall`
 * and `cairn hook` run as the agent's client runs them, in a git repository, against the server
 * through /mcp. The hooks' finer behaviour is tested on PGlite (agent-hooks.test.ts).
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentEnv, cairn, claude, contextOf, type Repo, tempRepo } from '../helpers/agent';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const REMOTE = 'https://github.com/acme/shop.git';

describe.each(TARGETS)('the agent side on %s', (db) => {
  let t: TestServer;
  let repo: Repo;
  let env: Record<string, string>;
  let alice: McpSession;
  let decision: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    const { key } = await t.createOrg('shop');
    repo = tempRepo(REMOTE, { 'src/payments/retry.ts': 'export const tries = 3;\n' });
    alice = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: REMOTE });
    decision = entryId(
      await alice.call('decide', {
        content: 'Payment retries use exponential backoff with jitter, at most 5 tries',
        rationale: 'the processor rate-limits bursts of retries',
        paths: ['src/payments/retry.ts'],
        commit: repo.git('rev-parse', 'HEAD'),
      }),
    );
    await alice.call('remember', { content: 'Run the integration tests with npm run test:int', tags: ['convention'] });
    env = await agentEnv(t.url, key, { CAIRN_AGENT: 'claude-code' });
  }, 120_000);
  afterAll(async () => {
    await alice?.close();
    repo?.remove();
    if (env) rmSync(env.HOME as string, { recursive: true, force: true });
    await t?.close();
  });

  it('cairn brief prints the brief of the working directory’s project, --json its structured content', async () => {
    const text = await cairn(['brief'], { cwd: repo.dir, env });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^Brief for project github\.com\/acme\/shop/);
    expect(text.stdout).toContain('exponential backoff');
    const json = await cairn(['brief', '--budget', '800', '--json'], { cwd: repo.dir, env });
    const out = JSON.parse(json.stdout);
    expect(out).toMatchObject({ view: 'brief', project: 'github.com/acme/shop', brief: { budget_chars: 800 } });
  });

  it('cairn recall prints the hits, --json the structured ones, --paths those anchored there', async () => {
    const text = await cairn(['recall', 'payment', 'retries', '--limit', '1'], { cwd: repo.dir, env });
    expect(text).toMatchObject({ code: 0, stderr: '' });
    expect(text.stdout).toMatch(/^1 hit:\n1\. \[decision\] Payment retries/);
    const json = await cairn(['recall', '', '--paths', 'src/payments/retry.ts', '--json'], { cwd: repo.dir, env });
    expect(JSON.parse(json.stdout).hits.map((h: { id: string }) => h.id)).toEqual([decision]);
  });

  it('hook session-start, user-prompt and stop, as Claude Code runs them', async () => {
    const session = `s-${db}`;
    const hook = (event: string, payload: unknown) =>
      cairn(['hook', event], { cwd: repo.dir, env, stdin: JSON.stringify(payload) });
    const start = await hook('session-start', claude.sessionStart(session, repo.dir));
    expect(start).toMatchObject({ code: 0, stderr: '' });
    const brief = contextOf(start.stdout, 'SessionStart');
    expect(brief).toMatch(/^You are agent "claude-code" in project github\.com\/acme\/shop\./);
    expect(brief).toContain('Payment retries use exponential backoff');
    expect(brief.length).toBeLessThanOrEqual(6000);

    // the decision came with the brief: not again in the same session; another session gets it
    const again = await hook('user-prompt', claude.userPrompt(session, repo.dir, 'how do payment retries work?'));
    expect(again).toMatchObject({ code: 0, stdout: '', stderr: '' });
    const other = await hook(
      'user-prompt',
      claude.userPrompt(`${session}-2`, repo.dir, 'how do payment retries work?'),
    );
    expect(contextOf(other.stdout, 'UserPromptSubmit')).toContain(`id ${decision}] Payment retries`);
    const unrelated = await hook('user-prompt', claude.userPrompt(`${session}-2`, repo.dir, 'make the header sticky'));
    expect(unrelated).toMatchObject({ code: 0, stdout: '', stderr: '' });

    expect((await hook('stop', claude.stop(session, repo.dir))).stdout).toBe(''); // nothing changed yet
    repo.write({ 'src/payments/retry.ts': 'export const tries = 5;\n' });
    const asked = await hook('stop', claude.stop(session, repo.dir));
    expect(JSON.parse(asked.stdout)).toEqual({
      decision: 'block',
      reason: expect.stringContaining('recorded nothing'),
    });
    expect((await hook('stop', claude.stop(session, repo.dir))).stdout).toBe(''); // once
  }, 60_000);
});
