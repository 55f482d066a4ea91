/** Every tool through real MCP clients over real HTTP, on PGlite and on the Postgres server. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const PROJECT = 'https://github.com/Acme/Widgets.git';

describe.each(TARGETS)('tools on %s', (db) => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  describe.each(CLIENT_KINDS)('with the %s client', (kind) => {
    let s: McpSession;
    const agent = `agent-${db}-${kind}`;
    beforeAll(async () => {
      s = await connect(kind, t.mcpUrl, { key, agent, project: PROJECT });
    });
    afterAll(() => s?.close());

    it('negotiates the expected protocol revision', () => {
      const v = s.protocolVersion();
      if (kind === 'v2-modern') expect(v).toBe('2026-07-28');
      else expect(v).toMatch(/^2025-/);
    });

    it('lists exactly the ten tools with input and output schemas and annotations', async () => {
      const tools = await s.listTools();
      expect(tools.map((x) => x.name).sort()).toEqual(
        [
          'artifact_get',
          'artifact_put',
          'decide',
          'forget',
          'note',
          'observe',
          'plan',
          'recall',
          'remember',
          'space',
        ].sort(),
      );
      for (const tool of tools) {
        expect(tool.inputSchema.type).toBe('object');
        expect(tool.outputSchema?.type).toBe('object');
        expect(tool.annotations).toHaveProperty('readOnlyHint');
      }
      const recall = tools.find((x) => x.name === 'recall');
      expect(Object.keys(recall?.inputSchema.properties as object)).toContain('query');
      const decide = tools.find((x) => x.name === 'decide');
      expect(decide?.inputSchema.required).toEqual(expect.arrayContaining(['content', 'rationale']));
    });

    it('remembers, deduplicates and recalls in the canonical project', async () => {
      const content = `The ${kind} deploy script lives in scripts/deploy-${db}.sh`;
      const r = await s.call('remember', { content, tags: ['ops'], metadata: { source: 'test' } });
      expect(r.isError).toBe(false);
      const entry = r.structured.entry as Record<string, unknown>;
      expect(entry).toMatchObject({
        kind: 'memory',
        content,
        scope: 'project',
        project: 'github.com/acme/widgets',
        agent,
        tags: ['ops'],
        version: 1,
        metadata: { source: 'test' },
      });
      expect(r.structured.deduplicated).toBe(false);
      expect(r.text).toContain(entry.id as string);

      const again = await s.call('remember', { content });
      expect(again.structured.deduplicated).toBe(true);
      expect(entryId(again)).toBe(entry.id);

      const found = await s.call('recall', { query: `where does the ${kind} deploy script live?` });
      const hits = found.structured.hits as { id: string; score: number }[];
      expect(hits[0]?.id).toBe(entry.id);
      expect(hits[0]?.score).toBeGreaterThan(0);
      expect(found.structured).toMatchObject({ project: 'github.com/acme/widgets', scope: 'project' });
    });

    it('observes with a source and notes privately by default', async () => {
      const o = await s.call('observe', { content: `tests failed on ${kind}`, source: 'npm test' });
      expect(o.structured.entry).toMatchObject({ kind: 'observation', source: 'npm test', scope: 'project' });
      const n = await s.call('note', { content: `scratch thought of ${kind}` });
      expect(n.structured.entry).toMatchObject({ kind: 'note', scope: 'agent', agent });
    });

    it('decides, supersedes a decision and leaves the old one out of default recall', async () => {
      const d1 = await s.call('decide', { content: `Use Redis for ${kind} caching`, rationale: 'fast' });
      const id1 = entryId(d1);
      const d2 = await s.call('decide', {
        content: `Use Postgres for ${kind} caching`,
        rationale: 'one less system',
        supersedes: id1,
      });
      const e2 = d2.structured.entry as { id: string; supersedes: string; rationale: string };
      expect(e2).toMatchObject({ supersedes: id1, rationale: 'one less system' });

      const def = await s.call('recall', { query: `${kind} caching`, kinds: ['decision'], limit: 100 });
      const ids = (def.structured.hits as { id: string }[]).map((h) => h.id);
      expect(ids).toContain(e2.id);
      expect(ids).not.toContain(id1);
      const all = await s.call('recall', {
        query: `${kind} caching`,
        kinds: ['decision'],
        include_superseded: true,
        limit: 100,
      });
      const old = (all.structured.hits as { id: string; superseded_by: string }[]).find((h) => h.id === id1);
      expect(old?.superseded_by).toBe(e2.id);

      const again = await s.call('decide', { content: 'x', rationale: 'y', supersedes: id1 });
      expect(again.isError).toBe(true);
      expect(again.text).toMatch(/already superseded/);
    });

    it('observes a fix that supersedes the failure it fixed: the failure leaves default recall', async () => {
      const failure = entryId(
        await s.call('observe', { content: `${kind}: CI failed on main, float rounding in applyDiscount` }),
      );
      const fix = await s.call('observe', {
        content: `${kind}: fixed, applyDiscount uses integer cents; CI green`,
        source: 'npm test',
        supersedes: failure,
      });
      expect(fix.isError).toBeFalsy();
      expect(fix.structured.entry).toMatchObject({ kind: 'observation', supersedes: failure });
      const hits = (await s.call('recall', { query: `${kind} applyDiscount`, limit: 100 })).structured.hits as {
        id: string;
      }[];
      expect(hits.map((h) => h.id)).not.toContain(failure);
      expect(hits.map((h) => h.id)).toContain(entryId(fix));
    });

    it('supersedes across memories, observations and decisions, not plans or notes', async () => {
      const convention = entryId(await s.call('remember', { content: `${kind}: format money with toFixed(2)` }));
      const decision = await s.call('decide', {
        content: `${kind}: format money with Intl.NumberFormat`,
        rationale: 'toFixed rounds half-cents wrongly',
        supersedes: convention,
      });
      expect(decision.isError).toBeFalsy();
      const workaround = entryId(await s.call('observe', { content: `${kind}: retry the flaky checkout test twice` }));
      const fix = await s.call('remember', {
        content: `${kind}: the checkout test waits for the queue`,
        supersedes: workaround,
      });
      expect(fix.isError).toBeFalsy();
      const all = await s.call('recall', { query: `${kind} money checkout`, include_superseded: true, limit: 50 });
      const byId = new Map(
        (all.structured.hits as { id: string; superseded_by: string | null }[]).map((h) => [h.id, h]),
      );
      expect(byId.get(convention)?.superseded_by).toBe(entryId(decision));
      expect(byId.get(workaround)?.superseded_by).toBe(entryId(fix));

      const plan = entryId(await s.call('plan', { title: `${kind}: ship it` }));
      const onPlan = await s.call('decide', { content: 'x', rationale: 'y', supersedes: plan });
      expect(onPlan.isError).toBe(true);
      expect(onPlan.text).toMatch(/supersedes: .* is a plan; update it with plan/);
      const note = entryId(await s.call('note', { content: `${kind}: my scratch` }));
      const onNote = await s.call('remember', { content: 'x', supersedes: note });
      expect(onNote.isError).toBe(true);
      expect(onNote.text).toMatch(/is a note; only a memory, observation or decision can be superseded/);
    });

    it("recall's text carries what the model needs: rationale, source, plan status and open steps, author, project, date, supersession", async () => {
      const tag = `zq${kind.replace(/\W/g, '')}`;
      const old = entryId(await s.call('decide', { content: `${tag} queue on Redis`, rationale: 'we had it' }));
      const now = entryId(
        await s.call('decide', { content: `${tag} queue on SQS`, rationale: 'managed, no ops', supersedes: old }),
      );
      await s.call('observe', { content: `${tag} queue backlog at 9am`, source: 'grafana' });
      await s.call('plan', {
        title: `${tag} queue migration`,
        steps: [
          { text: 'dual write', status: 'done' },
          { text: 'switch readers', status: 'doing' },
          { text: 'drop Redis' },
        ],
      });
      const r = await s.call('recall', { query: `${tag} queue`, include_superseded: true });
      const today = new Date().toISOString().slice(0, 10);
      expect(r.text).toContain(
        `[decision] ${tag} queue on SQS Why: managed, no ops (${agent}, widgets, ${today}; id ${now})`,
      );
      // the replacing decision is among the hits: named by its place, its id written once
      const place = r.text.split('\n').findIndex((l) => l.includes(`id ${now})`));
      expect(r.text).toContain(`[decision] ${tag} queue on Redis Why: we had it SUPERSEDED by hit ${place}.`);
      expect(r.text.split(now)).toHaveLength(2);
      expect(r.text).toContain(`[observation] ${tag} queue backlog at 9am Source: grafana (${agent}, widgets`);
      expect(r.text).toContain(
        `[plan] ${tag} queue migration [active, 1/3 steps done] Next: #1 (doing) switch readers; #2 drop Redis. (${agent}, widgets`,
      );
    });

    it('creates and moves a plan through its states, bumping version', async () => {
      const p = await s.call('plan', {
        title: `Ship ${kind}`,
        steps: [{ text: 'write code', status: 'doing' }, { text: 'test' }],
        status: 'draft',
      });
      const plan = p.structured.entry as { id: string; status: string; steps: unknown[]; version: number };
      expect(plan).toMatchObject({
        status: 'draft',
        version: 1,
        steps: [
          { text: 'write code', status: 'doing' },
          { text: 'test', status: 'todo' },
        ],
      });
      const a = await s.call('plan', { id: plan.id, status: 'active' });
      expect(a.structured.entry).toMatchObject({ status: 'active', version: 2 });
      const d = await s.call('plan', {
        id: plan.id,
        status: 'done',
        steps: [
          { text: 'write code', status: 'done' },
          { text: 'test', status: 'done' },
        ],
      });
      expect(d.structured.entry).toMatchObject({ status: 'done', version: 3 });
      const back = await s.call('plan', { id: plan.id, status: 'active' });
      expect(back.isError).toBe(true);
      expect(back.text).toMatch(/final/);

      const p2 = await s.call('plan', { title: 'skip ahead' });
      expect(p2.structured.entry).toMatchObject({ status: 'active' });
      const bad = await s.call('plan', { id: entryId(p2), status: 'draft' });
      expect(bad.isError).toBe(true);
      expect(bad.text).toMatch(/cannot move from active to draft/);
    });

    it('stores versioned artifacts and returns the bytes as an embedded resource', async () => {
      const name = `report-${kind}.md`;
      const v1 = await s.call('artifact_put', { name, content: '# v1', content_type: 'text/markdown' });
      expect(v1.structured.artifact).toMatchObject({ name, version: 1, size: 4, content_type: 'text/markdown', agent });
      const v2 = await s.call('artifact_put', { name, content: '# v2 ünïcode' });
      expect(v2.structured.artifact).toMatchObject({ version: 2 });

      const latest = await s.call('artifact_get', { name });
      expect(latest.content.find((c) => c.type === 'resource')?.resource).toMatchObject({ text: '# v2 ünïcode' });
      const first = await s.call('artifact_get', { name, version: 1 });
      expect(first.content.find((c) => c.type === 'resource')?.resource).toMatchObject({
        text: '# v1',
        mimeType: 'text/markdown',
      });

      const bytes = Uint8Array.from([0, 1, 2, 250, 255]);
      const bin = await s.call('artifact_put', {
        name: `blob-${kind}`,
        content_base64: Buffer.from(bytes).toString('base64'),
      });
      const id = (bin.structured.artifact as { id: string }).id;
      const got = await s.call('artifact_get', { id });
      const res = got.content.find((c) => c.type === 'resource')?.resource as { blob: string; mimeType: string };
      expect(res.mimeType).toBe('application/octet-stream');
      expect(Buffer.from(res.blob, 'base64')).toEqual(Buffer.from(bytes));
    });

    it('shows the space: caller, project, counts, and the ledger', async () => {
      const o = await s.call('space');
      expect(o.structured).toMatchObject({
        view: 'overview',
        caller: { agent, is_default: false },
        project: 'github.com/acme/widgets',
        org: { name: 'acme' },
        quota: { plan: null, tool_calls_per_month: null, requests_per_minute: null, stored_bytes_limit: null },
      });
      const quota = o.structured.quota as { tool_calls_this_month: number; stored_bytes: number };
      // the calls of this suite so far, this one included, on an org of its own
      expect(quota.tool_calls_this_month).toBeGreaterThan(5);
      expect(quota.stored_bytes).toBe(o.structured.stored_bytes);
      expect(quota.stored_bytes).toBeGreaterThan(0);
      expect((o.structured.counts as Record<string, number>).memory).toBeGreaterThan(0);
      const projects = await s.call('space', { view: 'projects' });
      expect(projects.structured.projects).toEqual(
        expect.arrayContaining([expect.objectContaining({ project: 'github.com/acme/widgets' })]),
      );
      const agents = await s.call('space', { view: 'agents' });
      expect(agents.structured.agents).toEqual(expect.arrayContaining([expect.objectContaining({ agent })]));
    });

    it('forgets entries and reports unknown ids', async () => {
      const r = await s.call('remember', { content: `forget me ${kind}` });
      const id = entryId(r);
      const missing = '01900000-0000-7000-8000-000000000000';
      const f = await s.call('forget', { ids: [id, missing], reason: 'obsolete' });
      expect(f.structured).toEqual({ forgotten: [id], not_found: [missing], forgotten_before: [] });
      const after = await s.call('recall', { query: `forget me ${kind}` });
      expect((after.structured.hits as { id: string }[]).some((h) => h.id === id)).toBe(false);
    });
  });
});
