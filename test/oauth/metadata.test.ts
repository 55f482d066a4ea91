/**
 * Client ID metadata documents: which addresses and URLs are never fetched (SSRF), the caps on
 * what is fetched, the checks on the document, and the whole authorization of a client known only
 * by its document's URL. The document's host is the one external party here: a test double stands
 * for it (this machine reaches no public host).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPublicAddress } from '../../src/oauth/addresses';
import { fetchMetadataClient, type MetadataFetch, metadataUrlProblem, webMetadataFetch } from '../../src/oauth/clients';
import { nodeMetadataFetch } from '../../src/oauth/fetch-node';
import { BrowserLike } from '../helpers/browser-like';
import { rawPost, toolCall } from '../helpers/clients';
import { type InProcess, startInProcess } from '../helpers/in-process';

describe('addresses a metadata document is never fetched from', () => {
  it.each([
    '127.0.0.1',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fc00::1',
    'fd12:3456::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '64:ff9b::a00:1',
    '2001:db8::1',
    // forms a red-team pass got through: IPv4-compatible, translated, site-local, 6to4, Teredo
    '[::127.0.0.1]',
    '::7f00:1',
    '[::ffff:0:7f00:1]',
    '[fec0::1]',
    '[2002:7f00:1::]',
    '2002:a00:1::1',
    '2001:0:4136:e378:8000:63bf:3fff:fdd2',
    '64:ff9b:1::a00:1',
  ])('refuses %s', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });
  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '2002:808:808::1'])(
    'allows %s',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );

  it('refuses client_id URLs that are not https, have no path, or name a local host', () => {
    expect(metadataUrlProblem('http://agent.example/client.json')).toMatch(/must be https/);
    expect(metadataUrlProblem('https://agent.example/')).toMatch(/has a path/);
    expect(metadataUrlProblem('https://127.0.0.1/client.json')).toMatch(/public host/);
    expect(metadataUrlProblem('https://[::1]/client.json')).toMatch(/public host/);
    expect(metadataUrlProblem('https://localhost/client.json')).toMatch(/public host/);
    expect(metadataUrlProblem(`https://agent.example/${'x'.repeat(120)}`)).toMatch(/at most 128/);
    expect(metadataUrlProblem('https://agent.example/client.json')).toBeNull();
  });

  it('resolves a name before connecting, and refuses one that points at this machine', async () => {
    await expect(nodeMetadataFetch(new URL('https://localhost/client.json'))).rejects.toThrow(
      /resolves to a private, loopback or link-local address/,
    );
  });
});

describe('fetching a document', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      if (req.url === '/big') res.end('x'.repeat(20_000));
      else if (req.url === '/moved') res.writeHead(302, { location: 'http://169.254.169.254/' }).end();
      else if (req.url === '/slow') setTimeout(() => res.end('{}'), 8000);
      else res.writeHead(200, { 'cache-control': 'public, max-age=600' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it('caps the size, follows no redirect, gives up after five seconds, and keeps max-age', async () => {
    await expect(webMetadataFetch(new URL(`${base}/big`))).rejects.toThrow(/larger than 16384 bytes/);
    await expect(webMetadataFetch(new URL(`${base}/moved`))).rejects.toThrow(/HTTP 302 \(redirects are not followed\)/);
    await expect(webMetadataFetch(new URL(`${base}/slow`))).rejects.toThrow(/timeout|aborted/i);
    expect(await webMetadataFetch(new URL(`${base}/ok`))).toEqual({ body: '{"ok":true}', maxAge: 600 });
  }, 15_000);

  it('takes a document only when it names itself and its redirect URIs are allowed', async () => {
    const id = 'https://agent.example/client.json';
    const serving =
      (doc: unknown, maxAge: number | null = null): MetadataFetch =>
      async () => ({ body: JSON.stringify(doc), maxAge });
    const good = { client_id: id, client_name: 'Agent', redirect_uris: ['http://127.0.0.1:5000/cb'] };
    await expect(
      fetchMetadataClient(id, serving({ ...good, client_id: 'https://other.example/c.json' })),
    ).rejects.toThrow(/names another client_id/);
    await expect(fetchMetadataClient(id, serving({ ...good, redirect_uris: ['javascript:alert(1)'] }))).rejects.toThrow(
      /redirect_uris: the scheme "javascript:" is not allowed/,
    );
    await expect(
      fetchMetadataClient(id, serving({ ...good, token_endpoint_auth_method: 'client_secret_basic' })),
    ).rejects.toThrow(/only public clients/);
    await expect(fetchMetadataClient(id, async () => ({ body: '<html>', maxAge: null }))).rejects.toThrow(/not JSON/);
    const now = Date.parse('2026-11-22T00:00:00Z');
    const client = await fetchMetadataClient(id, serving(good, 999_999), now);
    expect(client).toMatchObject({ id, kind: 'metadata_document', name: 'Agent', auth_method: 'none' });
    expect(client.expires_at).toBe('2026-11-23T00:00:00.000Z'); // max-age capped at a day
  });
});

describe('a client known by its metadata document, end to end', () => {
  const CLIENT = 'https://agent.example/oauth/client.json';
  const REDIRECT = 'http://127.0.0.1:9/cb';
  let app: InProcess;
  let url: string;
  let fetched = 0;

  beforeAll(async () => {
    const agentSite: MetadataFetch = async (u) => {
      fetched++;
      expect(u.toString()).toBe(CLIENT);
      const doc = { client_id: CLIENT, client_name: 'Hosted Agent', redirect_uris: [REDIRECT] };
      return { body: JSON.stringify(doc), maxAge: 3600 };
    };
    app = await startInProcess(() => ({ fetchMetadata: agentSite }));
    url = app.url;
  });
  afterAll(() => app?.close());

  it('fetches the document once, asks consent under its name, and tokens write as that client', async () => {
    const b = new BrowserLike(url);
    await b.get('/dashboard/signup');
    await b.post('/dashboard/signup', { email: 'cimd@example.com', password: 'correct horse battery', org: 'Docs' });
    const verifier = 'v'.repeat(50);
    const challenge = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString(
      'base64url',
    );
    const q = {
      response_type: 'code',
      client_id: CLIENT,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      resource: `${url}/mcp`,
    };
    const page = await b.get(`/dashboard/authorize?${new URLSearchParams(q)}`);
    expect(page.html).toContain('Allow Hosted Agent?');
    const org = /<option value="([0-9a-f-]{36})" selected/.exec(page.html)?.[1] as string;
    const back = new URL(
      (await b.post('/dashboard/authorize', { ...q, org_id: org, decision: 'allow' })).location as string,
    );
    const res = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.searchParams.get('code') as string,
        redirect_uri: REDIRECT,
        client_id: CLIENT,
        code_verifier: verifier,
      }),
    });
    const tokens = (await res.json()) as { access_token: string };
    expect(res.status).toBe(200);
    const write = await rawPost(`${url}/mcp`, toolCall('remember', { content: 'from a hosted agent' }), {
      authorization: `Bearer ${tokens.access_token}`,
    });
    const entry = ((await write.json()) as { result: { structuredContent: { entry: { agent: string } } } }).result
      .structuredContent.entry;
    expect(entry.agent).toBe(CLIENT);
    expect(fetched).toBe(1); // cached for the token request
    // a redirect URI the document does not list is refused on the page
    const foreign = await b.get(
      `/dashboard/authorize?${new URLSearchParams({ ...q, redirect_uri: 'https://evil.example/cb' })}`,
    );
    expect(foreign.status).toBe(400);
  });
});
