/**
 * The MCP authorization flow over raw HTTP, on Node (PGlite, Postgres) and the Worker: discovery,
 * registration, consent in the dashboard, code with PKCE, tokens bound to the resource, refresh
 * with rotation, revocation — and each way it must refuse. The same flow driven by the MCP client
 * SDK in a real browser is test/browser/oauth.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const REDIRECT = 'http://127.0.0.1:9/callback';

async function pkce() {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  const verifier = Buffer.from(bytes).toString('base64url');
  const challenge = Buffer.from(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier))).toString(
    'base64url',
  );
  return { verifier, challenge };
}

describe.each(TARGETS)('OAuth on %s', (db) => {
  let t: TestServer;
  let n = 0;
  /** A signed-in dashboard user with an org of their own. */
  const user = async (org = 'Acme') => {
    const b = new BrowserLike(t.url);
    await b.get('/dashboard/signup');
    await b.post('/dashboard/signup', {
      email: `oauth${++n}-${db}@example.com`,
      password: 'correct horse battery',
      org,
    });
    return b;
  };
  const register = async (meta: Record<string, unknown>) => {
    const res = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(meta),
    });
    return { status: res.status, json: (await res.json()) as Record<string, string> };
  };
  const publicClient = async (redirect = REDIRECT) =>
    (await register({ client_name: 'Test Agent', redirect_uris: [redirect], token_endpoint_auth_method: 'none' })).json
      .client_id as string;
  const authorizePath = (q: Record<string, string>) => `/dashboard/authorize?${new URLSearchParams(q)}`;
  const token = async (form: Record<string, string>) => {
    const res = await fetch(`${t.url}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(form),
    });
    return { status: res.status, json: (await res.json()) as Record<string, string | number> };
  };
  /** Consent through the dashboard: the code the redirect carries, and the redirect itself. */
  const consent = async (
    b: BrowserLike,
    clientId: string,
    challenge: string,
    extra: Record<string, string> = {},
    form: Record<string, string> = {},
  ) => {
    const q = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      state: 'st4te',
      resource: `${t.url}/mcp`,
      ...extra,
    };
    const page = await b.get(authorizePath(q));
    let location = page.location;
    if (!location) {
      expect(page.html).toContain('Allow Test Agent?');
      const org = /<option value="([0-9a-f-]{36})" selected/.exec(page.html)?.[1] as string;
      location = (await b.post('/dashboard/authorize', { ...q, org_id: org, decision: 'allow', ...form })).location;
    }
    const url = new URL(location as string);
    return { url, code: url.searchParams.get('code') as string };
  };
  const exchange = (code: string, verifier: string, clientId: string) =>
    token({
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: clientId,
      code_verifier: verifier,
      resource: `${t.url}/mcp`,
    });
  const tokensFor = async (b: BrowserLike, clientId: string) => {
    const { verifier, challenge } = await pkce();
    const r = await exchange((await consent(b, clientId, challenge)).code, verifier, clientId);
    expect(r.status).toBe(200);
    return r.json as { access_token: string; refresh_token: string; expires_in: number };
  };
  const mcp = (accessToken: string, name = 'remember', args: Record<string, unknown> = { content: 'via OAuth' }) =>
    rawPost(t.mcpUrl, toolCall(name, args), { authorization: `Bearer ${accessToken}` });

  beforeAll(async () => {
    t = await startTestServer(db);
  });
  afterAll(() => t?.close());

  it('points a client without credentials at the resource and authorization server metadata', async () => {
    const res = await fetch(t.mcpUrl);
    expect(res.status).toBe(401);
    const challenge = res.headers.get('www-authenticate') ?? '';
    const metadataUrl = `${t.url}/.well-known/oauth-protected-resource/mcp`;
    expect(challenge).toContain(`Bearer resource_metadata="${metadataUrl}", scope="memory"`);
    expect(challenge).toContain('X-Svc-Key realm="cairn"');
    const prm = (await (await fetch(metadataUrl)).json()) as Record<string, unknown>;
    expect(prm).toMatchObject({
      resource: `${t.url}/mcp`,
      authorization_servers: [t.url],
      scopes_supported: ['memory'],
    });
    const as = (await (await fetch(`${t.url}/.well-known/oauth-authorization-server`)).json()) as Record<
      string,
      unknown
    >;
    expect(as).toMatchObject({
      issuer: t.url,
      authorization_endpoint: `${t.url}/dashboard/authorize`,
      token_endpoint: `${t.url}/oauth/token`,
      registration_endpoint: `${t.url}/oauth/register`,
      code_challenge_methods_supported: ['S256'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
    // a wrong bearer token is named as such
    const wrong = await rawPost(t.mcpUrl, toolCall('recall', { query: 'x' }), { authorization: 'Bearer nonsense' });
    expect(wrong.status).toBe(401);
    expect(wrong.headers.get('www-authenticate')).toContain('error="invalid_token"');
  });

  it('registers, asks consent, exchanges the code, and the token writes as the client', async () => {
    const b = await user();
    const clientId = await publicClient();
    const { verifier, challenge } = await pkce();
    const { url, code } = await consent(b, clientId, challenge);
    expect(url.origin + url.pathname).toBe(REDIRECT);
    expect(url.searchParams.get('state')).toBe('st4te');
    expect(url.searchParams.get('iss')).toBe(t.url);
    const r = await exchange(code, verifier, clientId);
    expect(r.status).toBe(200);
    expect(r.json).toMatchObject({ token_type: 'Bearer', expires_in: 3600, scope: 'memory' });
    const access = r.json.access_token as string;
    const write = await mcp(access);
    expect(write.status).toBe(200);
    const written = (await write.json()) as { result: { structuredContent: { entry: { agent: string } } } };
    expect(written.result.structuredContent.entry.agent).toBe(clientId);
    // X-Svc-Agent still names the agent when sent
    const named = await rawPost(t.mcpUrl, toolCall('remember', { content: 'named' }), {
      authorization: `Bearer ${access}`,
      'x-svc-agent': 'planner',
    });
    expect(((await named.json()) as typeof written).result.structuredContent.entry.agent).toBe('planner');
    // the consent is remembered: the next authorization for this client needs no page
    const again = await consent(b, clientId, (await pkce()).challenge);
    expect(again.code).toMatch(/^[\w-]{43}$/);
    // and listed under Settings, connected apps
    const apps = (await b.get('/dashboard/settings/apps')).html;
    expect(apps).toContain('Test Agent');
    expect(apps).toContain(clientId);
  });

  it('binds a grant to an agent at consent: its tokens act as that agent only, and its events are verified', async () => {
    const b = await user();
    const clientId = await publicClient();
    const { verifier, challenge } = await pkce();
    const { code } = await consent(b, clientId, challenge, {}, { agent: 'reviewer' });
    const access = (await exchange(code, verifier, clientId)).json.access_token as string;
    const written = (await (await mcp(access)).json()) as {
      result: { structuredContent: { entry: { agent: string; id: string } } };
    };
    expect(written.result.structuredContent.entry.agent).toBe('reviewer');
    // naming itself is fine; naming another agent is refused, and nothing is written
    const same = await rawPost(t.mcpUrl, toolCall('remember', { content: 'as myself' }), {
      authorization: `Bearer ${access}`,
      'x-svc-agent': 'reviewer',
    });
    expect(same.status).toBe(200);
    const other = await rawPost(t.mcpUrl, toolCall('remember', { content: 'as someone else' }), {
      authorization: `Bearer ${access}`,
      'x-svc-agent': 'planner',
    });
    expect(other.status).toBe(403);
    const seen = (await (await mcp(access, 'space', { view: 'ledger', limit: 10 })).json()) as {
      result: {
        structuredContent: {
          caller: { agent: string; verified: boolean };
          events: { agent: string; verified: boolean }[];
        };
      };
    };
    expect(seen.result.structuredContent.caller).toMatchObject({ agent: 'reviewer', verified: true });
    const events = seen.result.structuredContent.events;
    expect(events.some((e) => e.agent === 'planner')).toBe(false);
    expect(events.filter((e) => e.agent === 'reviewer').map((e) => e.verified)).toEqual([true, true]);
    // the binding shows under Settings, connected apps
    expect((await b.get('/dashboard/settings/apps')).html).toContain('bound to reviewer');
  });

  it('rotates refresh tokens; a refresh token used twice revokes the grant', async () => {
    const b = await user();
    const clientId = await publicClient();
    const first = await tokensFor(b, clientId);
    const refreshed = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(refreshed.json.refresh_token).not.toBe(first.refresh_token);
    const second = refreshed.json.access_token as string;
    expect((await mcp(second)).status).toBe(200);
    const replay = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token,
      client_id: clientId,
    });
    expect(replay).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    expect(String(replay.json.error_description)).toMatch(/used already; the grant is revoked/);
    expect((await mcp(second)).status).toBe(401);
    const rotated = await token({
      grant_type: 'refresh_token',
      refresh_token: refreshed.json.refresh_token as string,
      client_id: clientId,
    });
    expect(rotated.json.error).toBe('invalid_grant');
  });

  it('refuses authorization without PKCE S256, with a foreign redirect URI, scope or resource', async () => {
    const b = await user();
    const clientId = await publicClient();
    // errors go back to a client the user consented to (else they are shown: test/e2e/web-redirects.test.ts)
    await consent(b, clientId, (await pkce()).challenge);
    const base = {
      response_type: 'code',
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: 's',
      code_challenge: (await pkce()).challenge,
      code_challenge_method: 'S256',
    };
    const errorOf = async (q: Record<string, string>) => {
      const page = await b.get(authorizePath(q));
      const url = new URL(page.location as string);
      expect(url.origin + url.pathname).toBe(REDIRECT);
      expect(url.searchParams.get('state')).toBe('s');
      return [url.searchParams.get('error'), url.searchParams.get('error_description')];
    };
    const { code_challenge: _, code_challenge_method: __, ...noPkce } = base;
    expect(await errorOf(noPkce)).toEqual(['invalid_request', expect.stringMatching(/PKCE is required/)]);
    expect(await errorOf({ ...base, code_challenge_method: 'plain' })).toEqual([
      'invalid_request',
      'code_challenge_method must be S256',
    ]);
    expect((await errorOf({ ...base, scope: 'admin' }))[0]).toBe('invalid_scope');
    expect((await errorOf({ ...base, resource: 'https://elsewhere.example/mcp' }))[0]).toBe('invalid_target');
    // an unregistered redirect URI is never redirected to
    const foreign = await b.get(authorizePath({ ...base, redirect_uri: 'https://attacker.example/cb' }));
    expect(foreign.status).toBe(400);
    expect(foreign.location).toBeNull();
    expect(foreign.html).toContain('not one the application registered');
    const unknown = await b.get(authorizePath({ ...base, client_id: 'no-such-client' }));
    expect(unknown.status).toBe(400);
    // denied: the client hears access_denied
    const asked = { ...base, client_id: await publicClient() };
    const page = await b.get(authorizePath(asked));
    const org = /<option value="([0-9a-f-]{36})" selected/.exec(page.html)?.[1] as string;
    const denied = new URL(
      (await b.post('/dashboard/authorize', { ...asked, org_id: org, decision: 'deny' })).location as string,
    );
    expect(denied.searchParams.get('error')).toBe('access_denied');
  });

  it('refuses a wrong verifier, a replayed code (revoking its tokens) and a changed redirect URI', async () => {
    const b = await user();
    const clientId = await publicClient();
    const { verifier, challenge } = await pkce();
    const { code } = await consent(b, clientId, challenge);
    const form = { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, client_id: clientId };
    const wrong = await token({ ...form, code_verifier: (await pkce()).verifier });
    expect(wrong).toMatchObject({ status: 400, json: { error: 'invalid_grant' } });
    expect(String(wrong.json.error_description)).toMatch(/code_verifier does not match/);
    // the code was spent by that attempt: single use
    const after = await token({ ...form, code_verifier: verifier });
    expect(after.json.error).toBe('invalid_grant');

    const fresh = await pkce();
    const second = await consent(b, clientId, fresh.challenge);
    const moved = await token({
      ...form,
      code: second.code,
      code_verifier: fresh.verifier,
      redirect_uri: 'http://127.0.0.1:9/other',
    });
    expect(moved.json).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/redirect_uri differs/),
    });

    const third = await pkce();
    const good = await consent(b, clientId, third.challenge);
    const ok = await token({ ...form, code: good.code, code_verifier: third.verifier });
    expect(ok.status).toBe(200);
    expect((await mcp(ok.json.access_token as string)).status).toBe(200);
    const replay = await token({ ...form, code: good.code, code_verifier: third.verifier });
    expect(replay.json).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/used already/),
    });
    expect((await mcp(ok.json.access_token as string)).status).toBe(401);
  });

  it('refuses registration of a javascript: or foreign http redirect URI, saying which', async () => {
    const js = await register({ redirect_uris: ['javascript:alert(1)'], token_endpoint_auth_method: 'none' });
    expect(js.status).toBe(400);
    expect(js.json).toMatchObject({ error: 'invalid_redirect_uri' });
    expect(js.json.error_description).toMatch(/scheme "javascript:" is not allowed/);
    const http = await register({ redirect_uris: ['http://example.com/cb'] });
    expect(http.json.error_description).toMatch(/http redirect URIs must point at this machine/);
    const none = await register({ client_name: 'x' });
    expect(none.json.error).toBe('invalid_redirect_uri');
    // a confidential client gets a secret, and must present it
    const conf = await register({ redirect_uris: [REDIRECT], client_name: 'Server app' });
    expect(conf.json).toMatchObject({ token_endpoint_auth_method: 'client_secret_basic' });
    expect(conf.json.client_secret).toMatch(/^[\w-]{43}$/);
    const noSecret = await token({
      grant_type: 'refresh_token',
      refresh_token: 'x',
      client_id: conf.json.client_id as string,
    });
    expect(noSecret).toMatchObject({ status: 401, json: { error: 'invalid_client' } });
  });

  it('refuses a token of another audience and an expired one with 401 invalid_token', async () => {
    const b = await user();
    const clientId = await publicClient();
    const { access_token } = await tokensFor(b, clientId);
    // the same server reached as another resource (localhost instead of 127.0.0.1)
    const elsewhere = t.mcpUrl.replace('127.0.0.1', 'localhost');
    expect(elsewhere).not.toBe(t.mcpUrl);
    const res = await rawPost(elsewhere, toolCall('recall', { query: 'x' }), {
      authorization: `Bearer ${access_token}`,
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    expect((await mcp(access_token)).status).toBe(200);
  });

  it.runIf(db !== 'pglite')('refuses an expired access token', async () => {
    const b = await user();
    const clientId = await publicClient();
    const { access_token, refresh_token } = await tokensFor(b, clientId);
    await t.pg?.query(`UPDATE oauth_tokens SET expires_at = now() - interval '1 second' WHERE kind = 'access'`);
    const res = await mcp(access_token);
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toContain('error="invalid_token"');
    const refreshed = await token({ grant_type: 'refresh_token', refresh_token, client_id: clientId });
    expect((await mcp(refreshed.json.access_token as string)).status).toBe(200);
  });

  it('stops a grant revoked under Settings, connected apps on its next request', async () => {
    const b = await user();
    const clientId = await publicClient();
    const { access_token, refresh_token } = await tokensFor(b, clientId);
    expect((await mcp(access_token)).status).toBe(200);
    const apps = (await b.get('/dashboard/settings/apps')).html;
    const grant = /settings\/apps\/([0-9a-f-]{36})\/revoke/.exec(apps)?.[1];
    const revoked = await b.post(`/dashboard/settings/apps/${grant}/revoke`, {});
    expect(revoked.html).toContain('Revoked: the app’s tokens are refused from its next request.');
    expect((await mcp(access_token)).status).toBe(401);
    expect((await token({ grant_type: 'refresh_token', refresh_token, client_id: clientId })).json.error).toBe(
      'invalid_grant',
    );
  });
});
