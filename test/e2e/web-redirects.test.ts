/**
 * Where the dashboard sends a browser, over real HTTP on PGlite, Postgres and the Worker: a bad
 * `next` after sign-in is ignored (the user lands on the default page, signed in, never a 500), and
 * an authorization request's error is shown on a page — never redirected to the client's URI —
 * unless the signed-in user already consented to that client (RFC 9700 §4.11.2: registration is
 * open, so anyone can register an https redirect URI and would otherwise get an open redirector).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const REDIRECT = 'https://client.example/callback';
const CHALLENGE = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

describe.each(TARGETS)('redirects on %s', (db) => {
  let t: TestServer;
  let n = 0;
  const password = 'correct horse battery';
  /** A new account (signed out again): its email. */
  const account = async () => {
    const email = `next${++n}-${db}@example.com`;
    const b = new BrowserLike(t.url);
    await b.get('/dashboard/signup');
    expect((await b.post('/dashboard/signup', { email, password, org: 'Acme' })).status).toBe(303);
    return email;
  };
  const signIn = async (email: string, next?: string) => {
    const b = new BrowserLike(t.url);
    await b.get('/dashboard/signin');
    return { b, res: await b.post('/dashboard/signin', { email, password, ...(next === undefined ? {} : { next }) }) };
  };
  const client = async () => {
    const res = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Phisher', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    return ((await res.json()) as { client_id: string }).client_id;
  };
  const authorize = (clientId: string, extra: Record<string, string> = {}) =>
    `/dashboard/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: CHALLENGE,
      code_challenge_method: 'S256',
      state: 's',
      ...extra,
    })}`;

  beforeAll(async () => {
    t = await startTestServer(db);
  });
  afterAll(() => t?.close());

  it('ignores a next with CR/LF, an absolute URL or //host: the user lands on the default page, signed in', async () => {
    const email = await account();
    for (const next of [
      '/dashboard/authorize?client_id=x\r\nSet-Cookie: taken=1',
      '/dashboard/authorize?client_id=x\nLocation: https://evil.example/',
      'https://evil.example/dashboard/authorize?x=1',
      '//evil.example/dashboard/authorize?x=1',
      '/\\evil.example/dashboard/authorize?x=1',
      '/dashboard/authorize?x=\\\\evil.example',
    ]) {
      const { b, res } = await signIn(email, next);
      expect(res.status, JSON.stringify(next)).toBe(303);
      expect(res.location).toBe('/dashboard');
      expect(res.headers.getSetCookie().join('\n')).not.toContain('taken=');
      // the session it started works
      expect((await b.get('/dashboard')).status).toBe(200);
    }
    // a good next still leads back to the authorization request
    const good = await signIn(email, authorize('some-client'));
    expect(good.res.location).toBe(authorize('some-client'));
    // the page itself does not carry a bad next into its form
    const page = await new BrowserLike(t.url).get(
      `/dashboard/signin?${new URLSearchParams({ next: '/dashboard/authorize?a\r\nb' })}`,
    );
    expect(page.status).toBe(200);
    expect(page.html).not.toContain('name="next"');
  });

  it('shows a signed-out request’s error on a page with 400, never redirecting to the client', async () => {
    const clientId = await client();
    const cases: [Record<string, string>, string][] = [
      [{ scope: 'admin' }, 'invalid_scope'],
      [{ response_type: 'token' }, 'unsupported_response_type'],
      [{ code_challenge_method: 'plain' }, 'invalid_request'],
      [{ resource: 'https://elsewhere.example/mcp' }, 'invalid_target'],
    ];
    for (const [extra, error] of cases) {
      const res = await new BrowserLike(t.url).get(authorize(clientId, extra));
      expect(res.status, error).toBe(400);
      expect(res.location).toBeNull();
      expect(res.html).toContain('This sign-in link cannot be used');
      expect(res.html).toContain(error);
    }
    // a good request still asks to sign in first, and comes back
    const good = await new BrowserLike(t.url).get(authorize(clientId));
    expect(good.status).toBe(303);
    expect(good.location).toMatch(/^\/dashboard\/signin\?next=/);
  });

  it('sends errors back only once the signed-in user consented to the client', async () => {
    const clientId = await client();
    const { b } = await signIn(await account());
    const before = await b.get(authorize(clientId, { scope: 'admin' }));
    expect(before.status).toBe(400);
    expect(before.location).toBeNull();
    expect(before.html).toContain('invalid_scope');
    // consent given: the client is trusted, and its errors go back to it
    const page = await b.get(authorize(clientId));
    const org = /<option value="([0-9a-f-]{36})" selected/.exec(page.html)?.[1] as string;
    const allowed = await b.post('/dashboard/authorize', {
      ...Object.fromEntries(new URL(authorize(clientId), t.url).searchParams),
      org_id: org,
      decision: 'allow',
    });
    expect(allowed.location).toMatch(/^https:\/\/client\.example\/callback\?code=/);
    const after = await b.get(authorize(clientId, { scope: 'admin' }));
    expect(after.status).toBe(303);
    const url = new URL(after.location as string);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(url.searchParams.get('error')).toBe('invalid_scope');
    // another user who never consented still gets the page
    const other = await signIn(await account());
    expect((await other.b.get(authorize(clientId, { scope: 'admin' }))).status).toBe(400);
  });
});
