/** Authentication and the HTTP surface of /mcp: keys, legacy header, revocation, methods, origins. */
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
};

describe.each(TARGETS)('authentication on %s', (db) => {
  let t: TestServer;
  let orgId: string;
  let key: string;
  let keyId: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ orgId, key, keyId } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  it('GET /mcp is 401 with WWW-Authenticate without a key, 405 with a valid one', async () => {
    const none = await fetch(t.mcpUrl);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toMatch(/X-Svc-Key/);
    expect(await none.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32001 }, id: null });
    const wrong = await fetch(t.mcpUrl, { headers: { 'X-Svc-Key': `svc_${'x'.repeat(40)}` } });
    expect(wrong.status).toBe(401);
    const ok = await fetch(t.mcpUrl, { headers: { 'X-Svc-Key': key } });
    expect(ok.status).toBe(405);
    const del = await fetch(t.mcpUrl, { method: 'DELETE', headers: { 'X-Svc-Key': key } });
    expect(del.status).toBe(405);
  });

  it('answers 401 for a missing, malformed, unknown key or a wrong header name', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'X-Svc-Key': 'not-a-key' },
      { 'X-Svc-Key': `svc_${'A'.repeat(40)}` },
      { 'X-Api-Key': key },
    ];
    for (const headers of attempts) {
      const res = await rawPost(t.mcpUrl, INIT, headers);
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toBeTruthy();
      const text = await res.text();
      expect(text).not.toContain(key);
    }
    const call = await rawPost(t.mcpUrl, toolCall('recall', { query: 'x' }), { 'X-Svc-Key': `svc_${'B'.repeat(40)}` });
    expect(call.status).toBe(401);
  });

  it('accepts the legacy header, and X-Svc-Key wins when both are sent', async () => {
    const legacy = await connect('v1', t.mcpUrl, { key, agent: 'old-client', legacyHeader: true });
    const r = await legacy.call('remember', { content: 'written through X-Legacy-Key' });
    expect(r.structured.entry).toMatchObject({ agent: 'old-client' });
    await legacy.close();
    const both = await rawPost(t.mcpUrl, INIT, {
      'X-Svc-Key': key,
      'X-Legacy-Key': 'svc_wrongwrongwrongwrongwrongwrongwrong',
    });
    expect(both.status).toBe(200);
    const bothWrong = await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': `svc_${'C'.repeat(40)}`, 'X-Legacy-Key': key });
    expect(bothWrong.status).toBe(401);
  });

  it('refuses a revoked key on the very next request, tool call or not', async () => {
    const { key: k2, keyId: id2 } = await t.createKey(orgId, 'to revoke');
    const s = await connect('v2', t.mcpUrl, { key: k2, agent: 'short-lived' });
    expect((await s.call('recall', { query: '' })).isError).toBe(false);
    await t.revokeKey(id2);
    await expect(s.call('recall', { query: '' })).rejects.toThrow(/revoked API key/);
    expect((await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': k2 })).status).toBe(401);
    expect(
      (await rawPost(t.mcpUrl, toolCall('remember', { content: 'after revoke' }), { 'X-Svc-Key': k2 })).status,
    ).toBe(401);
    // the org's other key still works, and nothing was written by the revoked one
    const s1 = await connect('v2', t.mcpUrl, { key, agent: 'auditor' });
    const r = await s1.call('recall', { query: 'after revoke' });
    expect(r.structured.hits).toEqual([]);
    const ledger = await s1.call('space', { view: 'ledger' });
    expect(ledger.structured.events).toEqual(
      expect.arrayContaining([expect.objectContaining({ op: 'key.revoke', entry_id: id2 })]),
    );
    await s1.close();
    await s.close().catch(() => {});
    expect(keyId).toBeTruthy();
  });

  it('refuses browser origins that are not allowed, and foreign Host headers', async () => {
    const res = await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': key, Origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    const host = await requestWithHost(t.mcpUrl, 'evil.example', key);
    expect(host).toBe(403);
    expect(await requestWithHost(t.mcpUrl, `localhost:${t.port}`, key)).toBe(200);
  });

  it('rejects an invalid X-Svc-Agent with 400 naming the header', async () => {
    const res = await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': key, 'X-Svc-Agent': 'a'.repeat(129) });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toMatch(/X-Svc-Agent/);
  });

  it('serves /healthz and a text root', async () => {
    const h = await fetch(`${t.url}/healthz`);
    expect(await h.json()).toEqual({ ok: true, version: expect.any(String) });
  });
});

describe('allowed origins', () => {
  it('lets a configured browser origin through', async () => {
    const t = await startTestServer('pglite', { CAIRN_ALLOWED_ORIGINS: 'https://app.example' });
    try {
      const { key } = await t.createOrg('o');
      expect((await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': key, Origin: 'https://app.example' })).status).toBe(200);
      expect((await rawPost(t.mcpUrl, INIT, { 'X-Svc-Key': key, Origin: 'https://other.example' })).status).toBe(403);
    } finally {
      await t.close();
    }
  });
});

/** fetch cannot set Host; node:http can (a DNS-rebinding attack sends a foreign Host). */
function requestWithHost(url: string, host: string, key: string): Promise<number> {
  const body = JSON.stringify(INIT);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        headers: {
          host,
          'x-svc-key': key,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'content-length': Buffer.byteLength(body),
        },
      },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}
