/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core): sign up, create
 * a key and copy its configuration, use the key over MCP from a real client, see the write in
 * Memory and in the Ledger attributed to the agent, revoke the key with confirmation, and see the
 * next MCP call refused. Screenshots of every page go to
 * test-results/screenshots/ (look at them).
 */
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, headersFor, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

const CHROMIUM = '/usr/bin/chromium';
const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

describe.runIf(existsSync(CHROMIUM) || process.env.CI)('dashboard in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    t = await startTestServer('pglite');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    const context = await browser.newContext({ viewport: { width: 390, height: 844 } }); // a phone
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('signs up, creates a key used over MCP, revokes it, and the next call is refused', async () => {
    await page.goto(`${t.url}/dashboard`);
    await expect.poll(() => page.url()).toContain('/dashboard/signin');
    await shot('01-signin');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password (at least 12 characters)').fill('correct horse battery');
    await page.getByLabel('Organisation name').fill('Analytical Engines');
    await shot('02-signup');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect.poll(() => page.url()).toContain('/dashboard/settings/keys');
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Settings, API keys');
    await shot('03-keys-empty');
    // keyboard only: type the name and press Enter
    await page.getByLabel('Name of a new key').fill('build agents');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Key “build agents” created');
    const secret = (await page.locator('#secret').textContent()) ?? '';
    expect(secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await page.locator('#config').textContent()).toContain(`${t.url}/mcp`);
    await shot('04-key-created');

    const agent = await connect('v2', t.mcpUrl, { key: secret, agent: 'babbage' });
    expect((await agent.call('remember', { content: 'The difference engine needs new cogs.' })).isError).toBe(false);
    await agent.close();

    // the write, in Memory and in the Ledger, attributed to the agent
    await page.getByRole('link', { name: 'Memory' }).click();
    await page.getByLabel(/^Search/).fill('difference engine');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('main ol').textContent()).toContain('The difference engine needs new cogs.');
    expect(await page.locator('main ol').textContent()).toContain('by babbage');
    await shot('05-memory');
    await page.getByRole('link', { name: 'The difference engine needs new cogs.' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Versions' }).count()).toBe(1);
    expect(await page.getByRole('row', { name: /babbage/ }).textContent()).toContain('remember');
    await shot('05b-entry');
    await page.getByRole('link', { name: 'Ledger' }).click();
    await expect.poll(() => page.getByRole('row', { name: /babbage/ }).textContent()).toContain('remember');
    expect(await page.getByRole('status').textContent()).toContain('Chain verified');
    await shot('06-ledger');
    await page.getByRole('link', { name: 'Usage' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent()).toBe('Usage');
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.getByRole('row', { name: new RegExp(today) }).textContent()).toContain('1');
    expect(await page.locator('main').textContent()).toContain('This org has no plan');
    await shot('06c-usage');
    await page.getByRole('link', { name: 'Artifacts' }).click();
    expect(await page.getByRole('status').textContent()).toContain('No shared artifacts yet');
    await shot('06b-artifacts');

    await page.getByRole('link', { name: 'Settings, API keys' }).click();
    const row = page.getByRole('row', { name: /build agents/ });
    await expect.poll(() => row.textContent()).toContain('ada@example.com');
    expect(await row.textContent()).toContain('active');
    await shot('07-keys-listed');
    await row.getByRole('link', { name: 'Revoke build agents' }).click();
    await shot('08-revoke-confirm');
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => page.getByRole('status').textContent()).toContain('is revoked');
    await shot('09-revoked');

    const refused = await rawPost(
      t.mcpUrl,
      toolCall('recall', { query: 'cogs' }),
      headersFor({ key: secret, agent: 'babbage' }),
    );
    expect(refused.status).toBe(401);

    await page.getByRole('link', { name: 'Orgs' }).click();
    await shot('10-orgs');
    // a second org, created and shown; its members are its owner alone
    await page.getByLabel('Name').fill('Difference Engines');
    await page.getByRole('button', { name: 'Create org' }).click();
    // a new org has no key yet: the dashboard goes to its keys
    await expect.poll(() => page.url()).toContain('/dashboard/settings/keys');
    await page.getByRole('link', { name: 'Orgs' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('Difference Engines (shown, owner)');
    await page.getByRole('link', { name: 'Settings, members' }).click();
    expect(await page.getByRole('row', { name: /ada@example.com/ }).textContent()).toContain('owner');
    await shot('11-members');
    await page.getByRole('button', { name: /Sign out/ }).click();
    await expect.poll(() => page.url()).toContain('/dashboard/signin');
  }, 60_000);
});
