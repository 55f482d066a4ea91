/**
 * A hook never touches the agent's session (CONTRACT §10): with the server down, slow, refusing
 * the key, or the hook misconfigured, `cairn hook` exits 0 with nothing on stdout and one line on
 * stderr, within its time limit. `cairn brief` and `recall` say what is wrong and exit 1.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTcpFault, type TcpFault } from '../fixtures/tcp-fault';
import { agentEnv, cairn, claude, contextOf, type Ran, type Repo, tempRepo } from '../helpers/agent';
import { connect } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

const REMOTE = 'https://github.com/acme/shop.git';
/** The process's own start (tsx loading the sources) comes on top of a hook's limit; slack for a busy machine. */
const STARTUP_MS = 2500;

describe('the agent side when things go wrong', () => {
  let t: TestServer;
  let proxy: TcpFault;
  let repo: Repo;
  let env: Record<string, string>;

  beforeAll(async () => {
    t = await startTestServer('pglite');
    const { key } = await t.createOrg('shop');
    const alice = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: REMOTE });
    await alice.call('remember', { content: 'Checkout retries the payment capture twice', tags: ['convention'] });
    await alice.close();
    proxy = await startTcpFault({ host: '127.0.0.1', port: t.port });
    repo = tempRepo(REMOTE);
    env = await agentEnv(`http://127.0.0.1:${proxy.port}`, key, { CAIRN_AGENT: 'claude-code' });
  }, 120_000);
  afterAll(async () => {
    await proxy?.close();
    repo?.remove();
    if (env) rmSync(env.HOME as string, { recursive: true, force: true });
    await t?.close();
  });

  const hook = (event: string, payload: unknown, more: Record<string, string> = {}) =>
    cairn(['hook', event], {
      cwd: repo.dir,
      env: { ...env, ...more },
      stdin: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const prompt = claude.userPrompt('s-1', '', 'how does checkout retry the payment capture?');
  /** Exit 0, stdout empty, exactly one line on stderr matching `line`. */
  const leftAlone = (r: Ran, line: RegExp) => {
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr.trimEnd().split('\n')).toEqual([expect.stringMatching(line)]);
  };

  it('works through the proxy (the failures below are the proxy’s)', async () => {
    const r = await hook('user-prompt', { ...prompt, cwd: repo.dir });
    expect(contextOf(r.stdout, 'UserPromptSubmit')).toContain('Checkout retries the payment capture twice');
  });

  it('server down: exit 0, nothing on stdout, one line on stderr', async () => {
    proxy.mode = 'refuse';
    try {
      leftAlone(
        await hook('user-prompt', { ...prompt, session_id: 's-2' }),
        /^cairn hook user-prompt: cannot reach Cairn at /,
      );
      leftAlone(
        await hook('session-start', claude.sessionStart('s-3', repo.dir)),
        /^cairn hook session-start: cannot reach/,
      );
      const brief = await cairn(['brief'], { cwd: repo.dir, env });
      expect(brief).toMatchObject({ code: 1, stdout: '' });
      expect(brief.stderr).toMatch(/^cairn: cannot reach Cairn at http:\/\/127\.0\.0\.1:\d+: [^\n]+\n$/);
      // a prompt without a telling word asks nothing, so nothing fails
      expect(await hook('user-prompt', { ...prompt, prompt: 'thanks, continue' })).toMatchObject({
        code: 0,
        stdout: '',
        stderr: '',
      });
    } finally {
      proxy.mode = 'pass';
    }
  });

  it('server slow: the hook gives up within its limit', async () => {
    proxy.mode = 'stall';
    try {
      const r = await hook('user-prompt', { ...prompt, session_id: 's-4' });
      leftAlone(r, /^cairn hook user-prompt: (Cairn at \S+ did not answer within \d+ ms|gave up after 1500 ms)/);
      expect(r.ms).toBeLessThan(1500 + STARTUP_MS);
      const s = await hook('session-start', claude.sessionStart('s-5', repo.dir));
      leftAlone(s, /^cairn hook session-start: (Cairn at \S+ did not answer within \d+ ms|gave up after 3000 ms)/);
      expect(s.ms).toBeLessThan(3000 + STARTUP_MS);
    } finally {
      proxy.mode = 'pass';
    }
  });

  it('wrong key, no configuration, a payload that is not JSON, an unknown event: exit 0 and one line', async () => {
    leftAlone(
      await hook('user-prompt', prompt, { CAIRN_KEY: `svc_${'x'.repeat(40)}` }),
      /^cairn hook user-prompt: Cairn at \S+ refused CAIRN_KEY \(401\): /,
    );
    leftAlone(
      await hook('session-start', claude.sessionStart('s-6', repo.dir), { CAIRN_URL: '' }),
      /CAIRN_URL is not set/,
    );
    leftAlone(await hook('user-prompt', prompt, { CAIRN_KEY: '' }), /CAIRN_KEY is not set/);
    leftAlone(await hook('user-prompt', '{"prompt": '), /the hook input on stdin is not JSON/);
    leftAlone(await hook('pre-compact', '{}'), /unknown event "pre-compact"/);
    // a client that writes its payload and never closes stdin: the event's limit still holds
    const held = await cairn(['hook', 'user-prompt'], {
      cwd: repo.dir,
      env,
      stdin: '{"prompt": "checkout',
      holdStdin: true,
    });
    leftAlone(held, /^cairn hook user-prompt: gave up after 1500 ms/);
    expect(held.ms).toBeLessThan(1500 + STARTUP_MS);
    const recall = await cairn(['recall', 'checkout'], { cwd: repo.dir, env: { ...env, CAIRN_URL: '' } });
    expect(recall).toMatchObject({ code: 1, stdout: '' });
    expect(recall.stderr).toMatch(/^cairn: CAIRN_URL is not set: set it to the Cairn server's URL/);
  });
});
