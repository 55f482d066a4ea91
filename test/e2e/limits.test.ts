/**
 * Plans, quotas and rate limits over real HTTP, on Node (PGlite, Postgres) and the Worker: exact
 * under concurrency, 429 with Retry-After, RateLimit headers and a JSON-RPC body naming the limit,
 * nothing written by a refused call, payload limits per plan, failed authentication per address.
 */
import { readdir } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { connect, headersFor, rawPost, toolCall } from '../helpers/clients';
import { ADMIN_TOKEN, startTestServer, TARGETS, type TestServer } from '../helpers/server';

interface RpcError {
  jsonrpc: string;
  id: null;
  error: {
    code: number;
    message: string;
    data: { limit: string; plan: string | null; value: number; used: number; retry_after: number; resets_at: string };
  };
}

function nextMonthUtc(): string {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().replace('.000Z', 'Z');
}

describe.each(TARGETS)('limits on %s', (db) => {
  let t: TestServer;

  const admin = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${t.url}/admin${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, json: (await res.json()) as Record<string, unknown> };
  };
  /** A new org on a new plan with these limits; returns its key. */
  const orgOnPlan = async (plan: string, limits: Record<string, unknown>) => {
    const org = await t.createOrg(`org-${plan}`);
    expect((await admin('PUT', `/plans/${plan}`, limits)).status).toBe(200);
    const put = await admin('PUT', `/orgs/${org.orgId}/plan`, { plan });
    expect(put.status).toBe(200);
    return org;
  };
  const call = (key: string, name: string, args: Record<string, unknown>, agent = 'limits-agent') =>
    rawPost(t.mcpUrl, toolCall(name, args), headersFor({ key, agent }));
  const ledgerOf = async (orgId: string) => (await admin('GET', `/orgs/${orgId}/ledger/verify`)).json;

  beforeAll(async () => {
    t = await startTestServer(db, { CAIRN_AUTH_FAILURE_LIMIT: '3', CAIRN_CREATION_LIMIT: '3' });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('lets exactly the quota through 1,000 parallel tool calls, and refuses the rest with 429 writing nothing', async () => {
    const { orgId, key } = await orgOnPlan('hundred', { tool_calls_per_month: 100 });
    const before = (await ledgerOf(orgId)).events as number;
    const responses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) => call(key, 'remember', { content: `parallel write number ${i}` })),
    );
    const statuses = responses.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(100);
    expect(statuses.filter((s) => s === 429)).toHaveLength(900);
    const refused = responses.find((r) => r.status === 429) as Response;
    const body = (await refused.json()) as RpcError;
    expect(body).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: {
        code: -32029,
        data: { limit: 'tool_calls_per_month', plan: 'hundred', value: 100, used: 100, resets_at: nextMonthUtc() },
      },
    });
    expect(body.error.message).toMatch(/Tool call quota reached: .*100 of the 100 .*"hundred"/);
    const retry = Number(refused.headers.get('retry-after'));
    expect(retry).toBe(body.error.data.retry_after);
    expect(retry).toBeGreaterThan(0);
    expect(retry).toBeLessThanOrEqual(31 * 24 * 3600);
    expect(refused.headers.get('ratelimit-policy')).toMatch(/^"tool_calls_per_month";q=100;w=\d+$/);
    expect(refused.headers.get('ratelimit')).toBe(`"tool_calls_per_month";r=0;t=${retry}`);
    // exactly the hundred accepted writes are stored and in the ledger, which still verifies
    const ledger = await ledgerOf(orgId);
    expect(ledger).toMatchObject({ ok: true, broken_at: null });
    expect(ledger.events).toBe(before + 100);
    const usage = (await admin('GET', `/orgs/${orgId}/usage`)).json.usage as Record<string, unknown>;
    expect(usage).toMatchObject({ plan: 'hundred', tool_calls_per_month: 100, tool_calls_this_month: 100 });
    const days = usage.days as { calls: number }[];
    expect(days[0]?.calls).toBe(100);
    // reads are tool calls too: refused as well, and the space (seen through a larger plan) counts 100 entries
    expect((await call(key, 'recall', { query: 'parallel' })).status).toBe(429);
    await admin('PUT', '/plans/hundred', { tool_calls_per_month: 101 });
    const space = await call(key, 'space', {});
    expect(space.status).toBe(200);
    const overview = ((await space.json()) as { result: { structuredContent: Record<string, unknown> } }).result
      .structuredContent;
    expect(overview.counts).toEqual({ memory: 100 });
    // space counts the calls before its own
    expect(overview.quota).toMatchObject({ plan: 'hundred', tool_calls_per_month: 101, tool_calls_this_month: 100 });
  });

  it.runIf(db === 'postgres')('keeps its database connections through tool errors raised in SQL', async () => {
    const { key } = await orgOnPlan('one-call', { tool_calls_per_month: 1 });
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(200);
    // sessions ever established to the test database (counted by the server as each begins)
    const sessions = async () =>
      Number(
        (
          await t.pg?.query<{ n: string }>(
            'SELECT sessions AS n FROM pg_stat_database WHERE datname = current_database()',
          )
        )?.[0]?.n,
      );
    const before = await sessions();
    for (let i = 0; i < 30; i++) expect((await call(key, 'recall', { query: `refused ${i}` })).status).toBe(429);
    // each refusal is an error of its statement, not of its connection: no new session per call
    // (the upkeep may open one of its own meanwhile)
    await new Promise((r) => setTimeout(r, 200));
    expect((await sessions()) - before).toBeLessThanOrEqual(3);
  });

  it.runIf(db === 'postgres')('answers through connections the database ended, mid-call or idle', async () => {
    const { key } = await orgOnPlan('unlimited-burst', {});
    const endAll = () =>
      t.pg?.query(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()',
      );
    for (let round = 0; round < 3; round++) {
      const calls = Promise.all(
        Array.from({ length: 20 }, (_, i) => call(key, 'remember', { content: `through a reconnect ${round} ${i}` })),
      );
      await endAll();
      // each call is answered: done, or refused as the database being unavailable (503)
      for (const r of await calls) expect([200, 503]).toContain(r.status);
    }
    await new Promise((r) => setTimeout(r, 200));
    expect((await call(key, 'recall', { query: 'reconnect' })).status).toBe(200);
  });

  it.runIf(db === 'postgres')('starts the count again in a new month', async () => {
    const { orgId, key } = await orgOnPlan('monthly', { tool_calls_per_month: 2 });
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(200);
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(200);
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(429);
    // as if the two calls had been made last month
    await t.pg?.query(
      `UPDATE org_usage SET month = (date_trunc('month', now() AT TIME ZONE 'UTC') - interval '1 month')::date WHERE org_id = $1`,
      [orgId],
    );
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(200);
    expect((await admin('GET', `/orgs/${orgId}/usage`)).json.usage).toMatchObject({ tool_calls_this_month: 1 });
  });

  it('limits requests per minute per key, each key with its own budget, initialize and tools/list included', async () => {
    const { orgId, key } = await orgOnPlan('five-a-minute', { requests_per_minute: 5 });
    const second = await t.createKey(orgId, 'second');
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => call(key, 'recall', { query: `burst ${i}` })),
    );
    expect(responses.filter((r) => r.status === 200)).toHaveLength(5);
    const refused = responses.filter((r) => r.status === 429);
    expect(refused).toHaveLength(15);
    const r = refused[0] as Response;
    const body = (await r.json()) as RpcError;
    expect(body.error.data).toMatchObject({ limit: 'requests_per_minute', plan: 'five-a-minute', value: 5 });
    expect(body.error.message).toMatch(/5 requests per minute/);
    // one request is earned back every 12 s
    const retry = Number(r.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(12);
    expect(r.headers.get('ratelimit-policy')).toBe('"requests_per_minute";q=5;w=60');
    expect(r.headers.get('ratelimit')).toBe(`"requests_per_minute";r=0;t=${retry}`);
    // the other key of the org is not starved by the first
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    const others = [];
    for (let i = 0; i < 6; i++) others.push((await rawPost(t.mcpUrl, list, headersFor({ key: second.key }))).status);
    expect(others).toEqual([200, 200, 200, 200, 200, 429]);
    // a client sees the 429 as an error naming the limit
    const client = connect('v2', t.mcpUrl, { key, agent: 'limits-agent' });
    await expect(client).rejects.toThrow(/429|Rate limit/);
  });

  it('refuses a write past the storage quota, keeps what is stored, and takes writes again after a forget', async () => {
    const { orgId, key } = await orgOnPlan('small-store', { stored_bytes: 100 });
    const first = await call(key, 'remember', { content: 'a'.repeat(60) });
    expect(first.status).toBe(200);
    const firstId = ((await first.json()) as { result: { structuredContent: { entry: { id: string } } } }).result
      .structuredContent.entry.id;
    const events = (await ledgerOf(orgId)).events;
    const over = await call(key, 'remember', { content: 'b'.repeat(60) });
    expect(over.status).toBe(429);
    const body = (await over.json()) as RpcError;
    expect(body.error.data).toMatchObject({ limit: 'stored_bytes', value: 100, used: 60, resets_at: null });
    expect(body.error.message).toMatch(/needs 60 bytes and the org holds 60 of the 100 bytes/);
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(over.headers.get('ratelimit-policy')).toBe('"stored_bytes";q=100');
    expect((await ledgerOf(orgId)).events).toBe(events);
    // an artifact counts its bytes too
    expect((await call(key, 'artifact_put', { name: 'big.txt', content: 'c'.repeat(50) })).status).toBe(429);
    expect((await call(key, 'forget', { id: firstId, reason: 'room' })).status).toBe(200);
    const again = await call(key, 'remember', { content: 'b'.repeat(60) });
    expect(again.status).toBe(200);
    // metadata counts toward the quota as content does (1 + 53 bytes more than the 40 left)
    expect((await call(key, 'remember', { content: 'x', metadata: { k: 'v'.repeat(45) } })).status).toBe(429);
    const usage = (await admin('GET', `/orgs/${orgId}/usage?days=0`)).json.usage;
    expect(usage).toMatchObject({ stored_bytes: 60, stored_bytes_limit: 100 });
    expect(usage).not.toHaveProperty('days');
  });

  it('holds entries and artifacts to the plan sizes as tool errors, leaving no bytes behind', async () => {
    const { orgId, key } = await orgOnPlan('tiny-items', { entry_chars: 100, artifact_bytes: 10 });
    const s = await connect('v2', t.mcpUrl, { key, agent: 'sizer' });
    const long = await s.call('remember', { content: 'é'.repeat(101) });
    expect(long.isError).toBe(true);
    expect(long.text).toMatch(
      /holds 101 characters \(content, title, rationale, source, tags, metadata and steps together\), more than the 100 characters an entry may hold on plan "tiny-items"/,
    );
    expect((await s.call('remember', { content: 'é'.repeat(100) })).isError).toBe(false);
    const plan = await s.call('plan', { title: 'x'.repeat(120) });
    expect(plan.isError).toBe(true);
    // every field counts, not the content alone: a rationale, tags and metadata; a plan's steps
    const events = (await ledgerOf(orgId)).events;
    const why = await s.call('decide', { content: 'd'.repeat(50), rationale: 'r'.repeat(60) });
    expect(why.isError).toBe(true);
    expect(why.text).toMatch(/holds 110 characters/);
    const tagged = await s.call('remember', { content: 'm'.repeat(40), tags: ['t'.repeat(30), 'u'.repeat(30)] });
    expect(tagged.isError).toBe(true);
    const meta = await s.call('remember', { content: 'short', metadata: { note: 'n'.repeat(100) } });
    expect(meta.isError).toBe(true);
    const steps = await s.call('plan', {
      title: 'ship it',
      steps: Array.from({ length: 6 }, (_, i) => ({ text: `step ${i} of the release` })),
    });
    expect(steps.isError).toBe(true);
    expect((await ledgerOf(orgId)).events).toBe(events);
    const artifact = await s.call('artifact_put', { name: 'eleven.bin', content: '12345678901' });
    expect(artifact.isError).toBe(true);
    expect(artifact.text).toMatch(/11 bytes; plan "tiny-items" allows at most 10 bytes/);
    expect((await s.call('artifact_put', { name: 'ten.bin', content: '1234567890' })).isError).toBe(false);
    if (db !== 'workers') {
      // the refused artifact's bytes were removed again: only the accepted one is in the org's folder
      expect(await readdir(`${t.blobsDir}/${orgId}`)).toHaveLength(1);
    }
    await s.close();
  });

  it('answers every call of a batch that reaches the rate, each metered on its own', async () => {
    const { orgId, key } = await orgOnPlan('three-a-minute', { requests_per_minute: 3 });
    const events = (await ledgerOf(orgId)).events;
    const batch = [1, 2, 3, 4, 5].map((i) => toolCall('remember', { content: `batched memory ${i}` }, i));
    const r = await rawPost(t.mcpUrl, batch, {
      ...headersFor({ key, agent: 'batcher' }),
      'mcp-protocol-version': '2025-03-26',
    });
    expect(r.status).toBe(200);
    const answers = (await r.json()) as { id: number; result: { isError?: boolean; content: { text: string }[] } }[];
    expect(answers.map((a) => a.id).sort()).toEqual([1, 2, 3, 4, 5]);
    const refused = answers.filter((a) => a.result.isError);
    expect(answers.length - refused.length).toBe(3);
    for (const a of refused) expect(a.result.content[0]?.text).toMatch(/Rate limit reached/);
    expect((await ledgerOf(orgId)).events).toBe((events as number) + 3);
  });

  it('shows the plan and its use in space, and an org off its plan is unlimited again', async () => {
    const { orgId, key } = await orgOnPlan('shown', { requests_per_minute: 1000, tool_calls_per_month: 50 });
    const s = await connect('v2-modern', t.mcpUrl, { key, agent: 'looker' });
    await s.call('remember', { content: 'one thing' });
    const o = await s.call('space');
    expect(o.structured.quota).toEqual({
      plan: 'shown',
      requests_per_minute: 1000,
      tool_calls_per_month: 50,
      tool_calls_this_month: 1,
      resets_at: nextMonthUtc(),
      stored_bytes_limit: null,
      stored_bytes: 9,
      artifact_bytes: null,
      entry_chars: null,
    });
    expect(o.text).toContain('Plan "shown". Tool calls this month: 1 of 50');
    const cleared = await admin('PUT', `/orgs/${orgId}/plan`, { plan: null });
    expect(cleared.json.usage).toMatchObject({ plan: null, tool_calls_per_month: null, tool_calls_this_month: 2 });
    expect((await s.call('space')).text).toContain('No plan: nothing is limited.');
    await s.close();
  });

  it('puts every org without a plan of its own on the default plan', async () => {
    const { orgId, key } = await t.createOrg('defaulted');
    const marked = await admin('PUT', '/plans/starter', { tool_calls_per_month: 1, is_default: true });
    expect(marked.json.plan).toMatchObject({ id: 'starter', is_default: true, tool_calls_per_month: 1 });
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(200);
    const second = await call(key, 'recall', { query: 'x' });
    expect(second.status).toBe(429);
    expect(((await second.json()) as RpcError).error.data.plan).toBe('starter');
    // a second default takes the mark from the first
    await admin('PUT', '/plans/starter-2', { is_default: true });
    const plans = (await admin('GET', '/plans')).json.plans as { id: string; is_default: boolean }[];
    expect(plans.filter((p) => p.is_default).map((p) => p.id)).toEqual(['starter-2']);
    expect((await call(key, 'recall', { query: 'x' })).status).toBe(200);
    await admin('PUT', '/plans/starter-2', { is_default: false });
    expect((await admin('GET', `/orgs/${orgId}/usage`)).json.usage).toMatchObject({ plan: null });
  });

  it('answers a bad plan or assignment with what to fix', async () => {
    const bad = await admin('PUT', '/plans/Bad Name', { tool_calls_per_month: 1 });
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.json)).toMatch(/lower-case letters/);
    const negative = await admin('PUT', '/plans/ok', { stored_bytes: -1 });
    expect(negative.status).toBe(400);
    expect(JSON.stringify(negative.json)).toMatch(/stored_bytes/);
    const unknown = await admin('PUT', '/plans/ok', { calls: 5 });
    expect(unknown.status).toBe(400);
    const { orgId } = await t.createOrg('planless');
    const missing = await admin('PUT', `/orgs/${orgId}/plan`, { plan: 'no-such-plan' });
    expect(missing.status).toBe(404);
    expect((missing.json as unknown as RpcError).error.message).toMatch(
      /there is no plan "no-such-plan"; create it first/,
    );
  });

  it('limits wrong /admin tokens per address, and counts every OAuth client registration', async () => {
    const wrongAdmin = () => fetch(`${t.url}/admin/orgs`, { headers: { authorization: 'Bearer not-the-admin-token' } });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await wrongAdmin()).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const register = () =>
      fetch(`${t.url}/oauth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ redirect_uris: ['http://127.0.0.1:9/cb'], token_endpoint_auth_method: 'none' }),
      });
    const made = [];
    for (let i = 0; i < 4; i++) made.push((await register()).status);
    expect(made).toEqual([201, 201, 201, 429]);
    const refused = await register();
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await refused.json()) as { error_description: string }).error_description).toMatch(
      /Too many OAuth client registrations from this address \(3 per 15 minutes\)/,
    );
  });

  it('counts every dashboard sign-up per address', async () => {
    const signUp = async (i: number) => {
      const b = new BrowserLike(t.url);
      await b.get('/dashboard/signup');
      return b.post('/dashboard/signup', {
        email: `limited-${i}-${Date.now()}@example.com`,
        password: 'correct horse battery',
        org: `Org ${i}`,
      });
    };
    const made = [];
    for (let i = 0; i < 3; i++) made.push((await signUp(i)).status);
    expect(made).toEqual([303, 303, 303]);
    const refused = await signUp(3);
    expect(refused.status).toBe(429);
    expect(refused.html).toMatch(/Too many sign-ups from your network address; try again in \d+ minute\(s\)\./);
  });

  it('limits failed authentication per client address, not requests without a key', async () => {
    const { key } = await t.createOrg('door');
    const wrong = headersFor({ key: `svc_${'W'.repeat(40)}` });
    const list = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} };
    for (let i = 0; i < 5; i++) expect((await rawPost(t.mcpUrl, list)).status).toBe(401); // no key: not counted
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await rawPost(t.mcpUrl, list, wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
    const blocked = await rawPost(t.mcpUrl, list, wrong);
    expect(blocked.status).toBe(429);
    const body = (await blocked.json()) as RpcError;
    expect(body.error.data).toMatchObject({ limit: 'auth_failures', value: 3 });
    expect(body.error.message).toMatch(/Too many failed authentication attempts from this address/);
    // three failures per 15 minutes: one is earned back after 300 s
    const retry = Number(blocked.headers.get('retry-after'));
    expect(retry).toBeGreaterThan(200);
    expect(retry).toBeLessThanOrEqual(300);
    // the address is refused, even with a good key, until then
    expect((await rawPost(t.mcpUrl, list, headersFor({ key }))).status).toBe(429);
  });
});
