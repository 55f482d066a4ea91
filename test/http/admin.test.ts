/** The operator API over real HTTP: orgs, keys, revocation, ledger verification, and its guard. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost } from '../helpers/clients';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } },
};

describe('admin API', () => {
  let t: TestServer;
  const admin = (path: string, init: RequestInit = {}, token = ADMIN_TOKEN) =>
    fetch(`${t.url}/admin${path}`, {
      ...init,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...(init.headers ?? {}) },
    });

  beforeAll(async () => {
    t = await startTestServer('postgres');
  });
  afterAll(() => t?.close());

  it('creates an org with a first key, more keys, lists and revokes them', async () => {
    const created = await admin('/orgs', { method: 'POST', body: JSON.stringify({ name: 'Acme' }) });
    expect(created.status).toBe(201);
    const { org, key } = await created.json();
    expect(org).toEqual({ id: expect.any(String), name: 'Acme' });
    expect(key.secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    expect((await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': key.secret })).status).toBe(200);

    const second = await (
      await admin(`/orgs/${org.id}/keys`, { method: 'POST', body: JSON.stringify({ name: 'ci' }) })
    ).json();
    expect(second.key).toMatchObject({ name: 'ci', created_by: 'admin-api', secret: expect.stringMatching(/^svc_/) });

    const list = await (await admin(`/orgs/${org.id}/keys`)).json();
    expect(list.keys.map((k: { name: string }) => k.name)).toEqual(['first key', 'ci']);
    expect(JSON.stringify(list)).not.toContain(key.secret);
    expect(JSON.stringify(list)).not.toMatch(/"hash"|"secret"/);
    expect(list.keys[0].prefix).toBe(key.secret.slice(0, 8));

    const revoked = await (await admin(`/keys/${second.key.id}`, { method: 'DELETE' })).json();
    expect(revoked.key.revoked_at).toEqual(expect.any(String));
    expect((await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': second.key.secret })).status).toBe(401);

    const verify = await (await admin(`/orgs/${org.id}/ledger/verify`)).json();
    expect(verify).toEqual({ ok: true, events: 3, broken_at: null });
    expect(t.pg).toBeDefined();
    const rows = await t.pg?.query('SELECT hash FROM api_keys');
    expect(JSON.stringify(rows)).not.toContain(key.secret);
  });

  it('refuses a missing or wrong token, and answers bad input naming the field', async () => {
    expect((await fetch(`${t.url}/admin/orgs`)).status).toBe(401);
    expect((await admin('/orgs', {}, 'wrong-token-wrong-token')).status).toBe(401);
    const bad = await admin('/orgs', { method: 'POST', body: JSON.stringify({ name: '' }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toMatch(/^name: /);
    expect((await admin('/orgs/not-a-uuid/keys')).status).toBe(400);
    expect((await admin('/orgs/01900000-0000-7000-8000-000000000000/keys')).status).toBe(404);
    expect((await admin('/keys/01900000-0000-7000-8000-000000000000', { method: 'DELETE' })).status).toBe(404);
  });
});

describe('admin API without CAIRN_ADMIN_TOKEN', () => {
  it('is off', async () => {
    const t = await startTestServer('pglite', { CAIRN_ADMIN_TOKEN: '' });
    try {
      const res = await fetch(`${t.url}/admin/orgs`, { headers: { authorization: 'Bearer anything-anything' } });
      expect(res.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
