/**
 * The MCP authorization flow end to end, as a user meets it: the MCP client SDK's OAuth support
 * (discovery, dynamic registration, PKCE) sends Debian's Chromium to the authorization page; the
 * user signs in and consents there; the client finishes with the code from its loopback redirect,
 * calls a tool with the token, refreshes it when it expires, and is refused once the user revokes
 * the app in the dashboard. Each dashboard page on the way is reviewed like those of
 * dashboard.test.ts (axe-core, light and dark, desktop and phone; screenshots in
 * test-results/screenshots/).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Client,
  type OAuthClientProvider,
  StreamableHTTPClientTransport,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { review, SHOTS } from '../helpers/review';
import { startTestServer, type TestServer } from '../helpers/server';

const CHROMIUM = '/usr/bin/chromium';
const ACCESS_SECONDS = 3;

type Saved = Parameters<OAuthClientProvider['saveTokens']>[0];
type Info = Parameters<NonNullable<OAuthClientProvider['saveClientInformation']>>[0];

/** An OAuth client as an MCP host implements one: it keeps what the SDK hands it, and opens the browser. */
class TestProvider implements OAuthClientProvider {
  info: Info | undefined;
  saved: Saved[] = [];
  verifier = '';
  redirects: URL[] = [];
  constructor(
    readonly redirectUrl: string,
    private readonly open: (url: URL) => void,
  ) {}
  get clientMetadata() {
    return {
      client_name: 'Babbage Agent',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  clientInformation() {
    return this.info;
  }
  saveClientInformation(info: Info) {
    this.info = info;
  }
  tokens() {
    return this.saved.at(-1);
  }
  saveTokens(tokens: Saved) {
    this.saved.push(tokens);
  }
  redirectToAuthorization(url: URL) {
    this.redirects.push(url);
    this.open(url);
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

describe.runIf(existsSync(CHROMIUM) || process.env.CI)('OAuth with the MCP client SDK in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let callback: Server;
  let callbackUrl: string;
  let received: (params: URLSearchParams) => void = () => {};
  const problems: string[] = [];
  const shot = async (name: string) => {
    problems.push(...(await review(page, name)));
  };

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestServer('pglite', { CAIRN_OAUTH_ACCESS_TOKEN_SECONDS: String(ACCESS_SECONDS) });
    // the MCP host's loopback listener for the redirect
    callback = createServer((req, res) => {
      received(new URL(req.url ?? '/', 'http://127.0.0.1').searchParams);
      res.end('You can close this window.');
    });
    await new Promise<void>((resolve) => callback.listen(0, '127.0.0.1', resolve));
    callbackUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await (await browser.newContext({ viewport: { width: 390, height: 844 } })).newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    callback?.close();
    await t?.close();
  });

  it('authorizes through sign-in and consent, calls with the token, refreshes it, and stops when revoked', async () => {
    // an account of the user, made beforehand
    const owner = new BrowserLike(t.url);
    await owner.get('/dashboard/signup');
    await owner.post('/dashboard/signup', {
      email: 'ada@example.com',
      password: 'correct horse battery',
      org: 'Engines',
    });

    const redirected = new Promise<URLSearchParams>((resolve) => {
      received = resolve;
    });
    let navigation: Promise<unknown> = Promise.resolve();
    const provider = new TestProvider(callbackUrl, (url) => {
      navigation = page.goto(url.toString()).catch((err: Error) => err); // the last one is left unanswered
    });
    const first = new StreamableHTTPClientTransport(new URL(t.mcpUrl), { authProvider: provider });
    await expect(new Client({ name: 'babbage', version: '1.0.0' }).connect(first)).rejects.toBeInstanceOf(
      UnauthorizedError,
    );
    // the SDK registered dynamically and sent the browser to the authorization endpoint with PKCE
    expect(provider.info?.client_id).toMatch(/^[0-9a-f-]{36}$/);
    const authorizeUrl = provider.redirects[0] as URL;
    expect(authorizeUrl.pathname).toBe('/dashboard/authorize');
    expect(authorizeUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorizeUrl.searchParams.get('resource')).toBe(t.mcpUrl);
    await navigation;

    // not signed in: sign in first, and come back to consent
    await expect.poll(() => page.url()).toContain('/dashboard/signin');
    await shot('20-oauth-signin');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Allow Babbage Agent?');
    expect(await page.locator('main').textContent()).toContain('127.0.0.1');
    expect(await page.getByLabel('Org it may use').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
    await shot('21-oauth-consent');
    await page.getByRole('button', { name: 'Allow' }).click();
    const params = await redirected;
    expect(params.get('code')).toMatch(/^[\w-]{43}$/);
    expect(params.get('iss')).toBe(t.url);

    const transport = new StreamableHTTPClientTransport(new URL(t.mcpUrl), { authProvider: provider });
    await transport.finishAuth(params);
    const client = new Client({ name: 'babbage', version: '1.0.0' });
    await client.connect(transport);
    const wrote = (await client.callTool({ name: 'remember', arguments: { content: 'Cogs need oil.' } })) as {
      structuredContent: { entry: { agent: string } };
    };
    expect(wrote.structuredContent.entry.agent).toBe(provider.info?.client_id);
    expect(provider.saved).toHaveLength(1);

    // the access token expires; the SDK refreshes it (rotating the refresh token) and goes on
    await new Promise((r) => setTimeout(r, (ACCESS_SECONDS + 1) * 1000));
    const recalled = (await client.callTool({ name: 'recall', arguments: { query: 'cogs' } })) as {
      structuredContent: { hits: { content: string }[] };
    };
    expect(recalled.structuredContent.hits[0]?.content).toBe('Cogs need oil.');
    expect(provider.saved).toHaveLength(2);
    expect(provider.saved[1]?.refresh_token).not.toBe(provider.saved[0]?.refresh_token);
    expect(provider.redirects).toHaveLength(1);

    // the user revokes the app in the dashboard: the next call is refused
    await page.goto(`${t.url}/dashboard/settings/apps`);
    expect(await page.getByRole('row', { name: /Babbage Agent/ }).textContent()).toContain('active');
    await shot('22-oauth-connected-apps');
    await page.getByRole('button', { name: 'Revoke Babbage Agent' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('Revoked');
    await shot('23-oauth-revoked');
    await expect(client.callTool({ name: 'recall', arguments: { query: 'cogs' } })).rejects.toThrow();
    // its refresh token went with the grant: the SDK had to ask the user again
    expect(provider.redirects).toHaveLength(2);
    await client.close().catch(() => {});

    // a request that cannot go back to its client is said on a page of its own
    const bad = await page.goto(`${t.url}/dashboard/authorize?client_id=no-such-client`);
    expect(bad?.status()).toBe(400);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('This sign-in link cannot be used');
    await shot('24-oauth-bad-request');
    expect(problems).toEqual([]);
  }, 90_000);
});
