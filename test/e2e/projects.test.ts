/** Project resolution through the service: one project per repository, fail-open, TTL. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type McpSession } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

describe('projects and expiry', () => {
  let t: TestServer;
  let key: string;
  const sessions: McpSession[] = [];
  const open = async (project?: string) => {
    const s = await connect('v2', t.mcpUrl, { key, agent: 'p', ...(project ? { project } : {}) });
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestServer('pglite');
    ({ key } = await t.createOrg('acme'));
  });
  afterAll(async () => {
    for (const s of sessions) await s.close();
    await t?.close();
  });

  it('lands every clone form of one repository in one project; the argument overrides the header', async () => {
    const ssh = await open('git@github.com:Acme/Widgets.git');
    const w = await ssh.call('remember', { content: 'widgets use tabs' });
    expect(w.structured).toMatchObject({
      project: 'github.com/acme/widgets',
      entry: { project: 'github.com/acme/widgets' },
    });
    const https = await open('https://user:token@github.com/acme/widgets/');
    const r = await https.call('recall', { query: 'tabs' });
    expect(r.structured).toMatchObject({ project: 'github.com/acme/widgets', scope: 'project' });
    expect(r.structured.hits).toHaveLength(1);
    expect(JSON.stringify(r)).not.toContain('token');

    const other = await https.call('remember', {
      content: 'gadgets use spaces',
      project: 'ssh://git@github.com:22/acme/gadgets',
    });
    expect(other.structured.entry).toMatchObject({ project: 'github.com/acme/gadgets' });
    const inWidgets = await https.call('recall', { query: 'spaces' });
    expect(inWidgets.structured.hits).toEqual([]);
    const projects = await https.call('space', { view: 'projects' });
    expect((projects.structured.projects as { project: string }[]).map((p) => p.project)).toEqual([
      'github.com/acme/gadgets',
      'github.com/acme/widgets',
    ]);
  });

  it('falls back to org-wide scope for an unrecognised project and says so, without echoing it', async () => {
    const s = await open('my-secret-token-not-a-project');
    const w = await s.call('remember', { content: 'written with a junk project' });
    expect(w.structured).toMatchObject({ project: null, entry: { scope: 'org', project: null } });
    expect(w.structured.notice).toMatch(/not a git remote URL or an absolute path/);
    expect(JSON.stringify(w)).not.toContain('my-secret-token');
  });

  it('reads a well-formed project the org has never used as org-wide, and says so', async () => {
    const s = await open('/home/me/never-seen');
    const r = await s.call('recall', { query: 'tabs' });
    expect(r.structured).toMatchObject({ project: null, scope: 'org' });
    expect(r.structured.notice).toMatch(/no entries yet/);
    expect(r.structured.hits).toHaveLength(1);
  });

  it('never returns an entry after its TTL', async () => {
    const s = await open('/srv/ttl');
    const e = await s.call('remember', { content: 'ephemeral token valid briefly', ttl_seconds: 1 });
    expect((e.structured.entry as { expires_at: string }).expires_at).toEqual(expect.any(String));
    expect((await s.call('recall', { query: 'ephemeral' })).structured.hits).toHaveLength(1);
    const before = (await s.call('space')).structured.counts as { memory: number };
    await new Promise((r) => setTimeout(r, 1200));
    expect((await s.call('recall', { query: 'ephemeral' })).structured.hits).toEqual([]);
    expect((await s.call('space')).structured.counts).toEqual({ memory: before.memory - 1 });
  });
});
