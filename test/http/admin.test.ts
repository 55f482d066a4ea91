/** The operator API over real HTTP: orgs, keys, revocation, ledger verification, and its guard. */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fromThisMachine } from '../../src/node/local-admin';
import { BrowserLike } from '../helpers/browser-like';
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

  it('makes an account owning an org, which signs in to the dashboard', async () => {
    const { org } = await (await admin('/orgs', { method: 'POST', body: JSON.stringify({ name: 'Owned' }) })).json();
    const made = await admin(`/orgs/${org.id}/users`, {
      method: 'POST',
      body: JSON.stringify({ email: 'Op@Example.com' }),
    });
    expect(made.status).toBe(201);
    const { user, password } = await made.json();
    expect(user).toEqual({ user_id: expect.any(String), email: 'op@example.com', org_id: org.id, created: true });
    const b = new BrowserLike(t.url);
    await b.get('/dashboard/signin');
    expect((await b.post('/dashboard/signin', { email: 'op@example.com', password })).status).toBe(303);
    expect((await b.get('/dashboard')).html).toContain('Owned (shown, owner)');
    const bad = await admin(`/orgs/${org.id}/users`, { method: 'POST', body: JSON.stringify({ email: 'nope' }) });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.message).toBe('email: not an email address');
  });
});

describe('admin API without CAIRN_ADMIN_TOKEN', () => {
  it('is off on Postgres', async () => {
    const t = await startTestServer('postgres', { CAIRN_ADMIN_TOKEN: '' });
    try {
      const res = await fetch(`${t.url}/admin/orgs`, { headers: { authorization: 'Bearer anything-anything' } });
      expect(res.status).toBe(404);
      expect(existsSync(join(t.dataDir, 'admin.json'))).toBe(false);
    } finally {
      await t.close();
    }
  });

  it('on the embedded database opens to the token in the data directory only, from this machine', async () => {
    const t = await startTestServer('pglite', { CAIRN_ADMIN_TOKEN: '' });
    try {
      const file = join(t.dataDir, 'admin.json');
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const channel = JSON.parse(readFileSync(file, 'utf8'));
      expect(channel).toEqual({ url: t.url, token: expect.stringMatching(/^[\w-]{43}$/), pid: process.pid });
      const ask = (token: string, headers: Record<string, string> = {}) =>
        fetch(`${t.url}/admin/orgs`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ name: 'Local' }),
        });
      expect((await ask('anything-anything')).status).toBe(401);
      // a request a proxy forwarded is not from this machine: for it the admin API is off (contract §6)
      expect((await ask(channel.token, { 'X-Real-IP': '203.0.113.9' })).status).toBe(404);
      const made = await ask(channel.token);
      expect(made.status).toBe(201);
      const { org } = await made.json();
      const keys = await (
        await fetch(`${t.url}/admin/orgs/${org.id}/keys`, { headers: { authorization: `Bearer ${channel.token}` } })
      ).json();
      expect(keys.keys[0].created_by).toBe('cli'); // the ledger and the key list name the CLI
      await t.stop();
      expect(existsSync(file)).toBe(false); // removed at a clean stop
    } finally {
      await t.close();
    }
  });

  it('tells a connection from this machine from any other', () => {
    expect(fromThisMachine('127.0.0.1', '127.0.0.1')).toBe(true);
    expect(fromThisMachine('::ffff:127.0.0.5', '::ffff:127.0.0.1')).toBe(true);
    expect(fromThisMachine('::1', '::1')).toBe(true);
    expect(fromThisMachine('192.0.2.7', '192.0.2.7')).toBe(true); // the machine calling its own address
    expect(fromThisMachine('192.0.2.8', '192.0.2.7')).toBe(false);
    expect(fromThisMachine('::ffff:203.0.113.9', '::ffff:127.0.0.1')).toBe(false);
    expect(fromThisMachine(undefined, '127.0.0.1')).toBe(false);
  });
});
