/**
 * Two orgs that never see each other, through every tool; and agent scope kept private between
 * two agents of one org.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type McpSession, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const SECRET_A = 'zebrafish-launch-codes-of-org-a';
const PROJECT = 'git@github.com:acme/rocket.git';

describe.each(TARGETS)('isolation on %s', (db) => {
  let t: TestServer;
  let keyA: string;
  let keyB: string;
  let a: McpSession;
  let b: McpSession;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key: keyA } = await t.createOrg('org-a'));
    ({ key: keyB } = await t.createOrg('org-b'));
    a = await connect('v2', t.mcpUrl, { key: keyA, agent: 'alice', project: PROJECT });
    b = await connect('v2', t.mcpUrl, { key: keyB, agent: 'alice', project: PROJECT });
    const entry = async (tool: string, args: Record<string, unknown>) =>
      ((await a.call(tool, args)).structured.entry as { id: string }).id;
    ids.memory = await entry('remember', { content: `memory ${SECRET_A}`, scope: 'org' });
    ids.observation = await entry('observe', { content: `observation ${SECRET_A}` });
    ids.decision = await entry('decide', { content: `decision ${SECRET_A}`, rationale: SECRET_A });
    ids.note = await entry('note', { content: `note ${SECRET_A}` });
    ids.plan = await entry('plan', { title: `plan ${SECRET_A}` });
    ids.artifact = (
      (await a.call('artifact_put', { name: 'secret.txt', content: SECRET_A })).structured.artifact as { id: string }
    ).id;
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.close();
  });

  async function statusOf(key: string, tool: string, args: Record<string, unknown>) {
    const res = await rawPost(t.mcpUrl, toolCall(tool, args), { 'X-Svc-Key': key, 'X-Svc-Agent': 'alice' });
    return { status: res.status, text: await res.text() };
  }

  it('recall, space and every listing in org B show nothing of org A', async () => {
    const outputs = [
      await b.call('recall', { query: SECRET_A, scope: 'org' }),
      await b.call('recall', { query: '', scope: 'org', limit: 100 }),
      await b.call('recall', { query: SECRET_A, scope: 'agent' }),
      await b.call('space'),
      await b.call('space', { view: 'ledger', limit: 500 }),
      await b.call('space', { view: 'projects' }),
      await b.call('space', { view: 'agents' }),
      await b.call('artifact_get', { name: 'secret.txt' }),
    ];
    for (const o of outputs) {
      const all = JSON.stringify(o);
      expect(all).not.toContain(SECRET_A);
      for (const id of Object.values(ids)) expect(all).not.toContain(id);
    }
    expect(outputs[0]?.structured.hits).toEqual([]);
    expect(outputs[3]?.structured.counts).toEqual({});
    expect(outputs[7]?.isError).toBe(true);
  });

  it('answers 403 for every id of org A used from org B, and changes nothing', async () => {
    const attempts: [string, Record<string, unknown>][] = [
      ['remember', { content: 'x', supersedes: ids.memory }],
      ['decide', { content: 'x', rationale: 'y', supersedes: ids.decision }],
      ['plan', { id: ids.plan, status: 'done' }],
      ['artifact_get', { id: ids.artifact }],
      ['forget', { ids: [ids.memory, ids.artifact] }],
      ['forget', { id: ids.note }],
    ];
    for (const [tool, args] of attempts) {
      const r = await statusOf(keyB, tool, args);
      expect(r.status, `${tool} ${JSON.stringify(args)}`).toBe(403);
      expect(r.text).not.toContain(SECRET_A);
      expect(JSON.parse(r.text)).toMatchObject({ jsonrpc: '2.0', error: { code: -32003 } });
    }
    await expect(b.call('forget', { id: ids.memory })).rejects.toThrow(/403|another org/);
    const still = await a.call('recall', { query: SECRET_A, scope: 'org', limit: 100 });
    expect((still.structured.hits as unknown[]).length).toBe(5);
    const plan = await a.call('recall', { query: '', kinds: ['plan'] });
    expect(plan.structured.hits).toEqual([expect.objectContaining({ id: ids.plan, status: 'active', version: 1 })]);
    expect((await a.call('artifact_get', { id: ids.artifact })).isError).toBe(false);
  });

  it('keeps agent-scope entries private between two agents of one org', async () => {
    const bob = await connect('v1', t.mcpUrl, { key: keyA, agent: 'bob', project: PROJECT });
    try {
      const privatePlan = (
        (await a.call('plan', { title: 'alice private plan', scope: 'agent' })).structured.entry as { id: string }
      ).id;
      const privateArt = (
        (await a.call('artifact_put', { name: 'diary.txt', content: 'dear diary', scope: 'agent' })).structured
          .artifact as { id: string }
      ).id;
      for (const scope of ['org', 'project', 'agent']) {
        const r = await bob.call('recall', { query: `note ${SECRET_A}`, scope, limit: 100 });
        expect((r.structured.hits as { id: string }[]).map((h) => h.id)).not.toContain(ids.note);
        const recent = await bob.call('recall', { query: '', scope, limit: 100 });
        expect(JSON.stringify(recent.structured)).not.toContain('alice private plan');
      }
      const aliceSees = await a.call('recall', { query: `note ${SECRET_A}`, scope: 'agent' });
      expect((aliceSees.structured.hits as { id: string }[])[0]?.id).toBe(ids.note);

      const f = await bob.call('forget', { id: ids.note });
      expect(f.structured).toEqual({ forgotten: [], not_found: [ids.note], forgotten_before: [] });
      const upd = await bob.call('plan', { id: privatePlan, status: 'done' });
      expect(upd.isError).toBe(true);
      expect(upd.text).toMatch(/not found/);
      const art = await bob.call('artifact_get', { id: privateArt });
      expect(art.isError).toBe(true);
      const byName = await bob.call('artifact_get', { name: 'diary.txt' });
      expect(byName.isError).toBe(true);
      const sup = await bob.call('remember', { content: 'x', supersedes: ids.note });
      expect(sup.isError).toBe(true);
      expect(sup.text).toMatch(/not found/);

      const overview = await bob.call('space');
      expect(overview.structured.counts).not.toHaveProperty('note');
      expect((await a.call('recall', { query: '', kinds: ['note'], scope: 'agent' })).structured.hits).toHaveLength(1);
    } finally {
      await bob.close();
    }
  });

  it('shares one default identity when X-Svc-Agent is absent, and says so', async () => {
    const anon = await connect('v2', t.mcpUrl, { key: keyA });
    try {
      const o = await anon.call('space');
      expect(o.structured.caller).toEqual({ agent: 'default', is_default: true, verified: false });
      expect(o.text).toMatch(/default agent/);
      const w = await anon.call('remember', { content: 'written without an agent header' });
      expect(w.structured.entry).toMatchObject({ agent: 'default', scope: 'org', project: null });
    } finally {
      await anon.close();
    }
  });
});
