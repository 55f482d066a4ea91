/**
 * The OAuth issuer and the dashboard never follow an unchecked Host: from CAIRN_BASE_URL, or from a
 * Host that CAIRN_ALLOWED_HOSTS lists; a server reachable by names it does not know turns OAuth
 * off and says what to set.
 */
import { request } from 'node:http';
import { afterAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A GET with a Host of our choosing (fetch does not let a caller set it). The servers listen on
 * 127.0.0.2: a loopback address the default host list does not name, so they behave as a server
 * bound beyond this machine would, without being reachable from outside it.
 */
function get(port: number, path: string, host: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.2', port, path, headers: { host } }, (res) => {
      let body = '';
      res.on('data', (chunk) => {
        body += chunk;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the OAuth issuer and the Host', () => {
  const servers: TestServer[] = [];
  afterAll(async () => {
    for (const s of servers) await s.close();
  });

  it('turns OAuth off when any Host would be believed, and says what to set', async () => {
    const t = await startTestServer('pglite', { HOST: '127.0.0.2' });
    servers.push(t);
    const meta = await get(t.port, '/.well-known/oauth-authorization-server', 'evil.example');
    expect(meta.status).toBe(503);
    expect(meta.body).toContain('set CAIRN_BASE_URL (its public URL) or CAIRN_ALLOWED_HOSTS');
    expect(meta.body).not.toContain('evil.example');
    expect((await get(t.port, '/oauth/authorize', 'evil.example')).status).toBe(503);
  });

  it('takes the issuer from a listed Host only, and refuses others on every route naming the service', async () => {
    const t = await startTestServer('pglite', { HOST: '127.0.0.2', CAIRN_ALLOWED_HOSTS: 'cairn.example' });
    servers.push(t);
    const good = await get(t.port, '/.well-known/oauth-authorization-server', `cairn.example:${t.port}`);
    expect(good.status).toBe(200);
    expect(JSON.parse(good.body).issuer).toBe(`http://cairn.example:${t.port}`);
    for (const path of ['/.well-known/oauth-authorization-server', '/oauth/authorize', '/dashboard/signin']) {
      const bad = await get(t.port, path, 'evil.example');
      expect(bad.status).toBe(403);
      expect(bad.body).toContain('Host \\"evil.example\\" is not allowed; set CAIRN_ALLOWED_HOSTS');
    }
  });

  it('takes the issuer from CAIRN_BASE_URL whatever the Host', async () => {
    const t = await startTestServer('pglite', { HOST: '127.0.0.2', CAIRN_BASE_URL: 'https://memory.example.com' });
    servers.push(t);
    const meta = await get(t.port, '/.well-known/oauth-authorization-server', 'evil.example');
    expect(meta.status).toBe(200);
    expect(JSON.parse(meta.body).issuer).toBe('https://memory.example.com');
  });
});
