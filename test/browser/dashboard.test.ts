/**
 * The dashboard in a real browser (Debian's Chromium driven by playwright-core): sign up, create
 * a key and copy its configuration, use the key over MCP from a real client, see the write in
 * Memory and in the Ledger attributed to the agent, revoke the key with confirmation, and see the
 * next MCP call refused. Every page reached, its empty and error states and the 404 page included,
 * is reviewed (test/helpers/review.ts): axe-core finds no serious or critical violation in light
 * and dark at 1280 and 390 px, nothing is wider than a phone, and screenshots of each go to
 * test-results/screenshots/ (look at them). Then the same key's life by keyboard alone.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { connect, headersFor, rawPost, toolCall } from '../helpers/clients';
import { cspViolations, review, SHOTS } from '../helpers/review';
import { startTestServer, type TestServer } from '../helpers/server';

const CHROMIUM = '/usr/bin/chromium';

describe.runIf(existsSync(CHROMIUM) || process.env.CI)('dashboard in Chromium', () => {
  let t: TestServer;
  let browser: Browser;
  let page: Page;
  let csp: string[];
  const problems: string[] = [];
  const shot = async (name: string) => {
    problems.push(...(await review(page, name)));
  };

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
    csp = cspViolations(page);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  const h1 = () => page.getByRole('heading', { level: 1 }).textContent();

  it('signs up, creates a key used over MCP, revokes it, and the next call is refused', async () => {
    // an unknown page answers a dashboard page, not JSON, for a visitor not signed in
    const missing = await page.goto(`${t.url}/dashboard/no-such-page`);
    expect(missing?.status()).toBe(404);
    expect(missing?.headers()['content-type']).toContain('text/html');
    expect(await h1()).toBe('Page not found');
    expect(await page.getByRole('alert').textContent()).toContain('/dashboard/no-such-page');
    await shot('00-not-found-signed-out');
    await page.getByRole('link', { name: 'Sign in' }).click();

    await expect.poll(() => page.url()).toContain('/dashboard/signin');
    await shot('01-signin');
    await page.getByLabel('Email').fill('nobody@example.com');
    await page.getByLabel('Password').fill('not the password at all');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('Wrong email or password.');
    await shot('01b-signin-error');
    await page.getByRole('link', { name: 'Create an account' }).click();
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByLabel('Password (at least 12 characters)').fill('correct horse battery');
    await page.getByLabel('Organisation name').fill('Analytical Engines');
    await shot('02-signup');
    await page.getByRole('button', { name: 'Create account' }).click();

    await expect.poll(() => page.url()).toContain('/dashboard/settings/keys');
    expect(await h1()).toBe('Settings, API keys');
    // the navigation says where you are
    const current = page.locator('nav [aria-current="page"]');
    expect(await current.count()).toBe(1);
    expect(await current.textContent()).toBe('Settings, API keys');
    expect(await page.locator('main').textContent()).toContain('No keys yet.');
    await shot('03-keys-empty');
    // keyboard only: type the name and press Enter
    await page.getByLabel('Name of a new key').fill('build agents');
    await page.keyboard.press('Enter');
    await expect.poll(h1).toBe('Key “build agents” created');
    const secret = (await page.locator('#secret').textContent()) ?? '';
    expect(secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    await page.getByRole('button', { name: 'Copy key' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    expect(await page.locator('#config').textContent()).toContain(`${t.url}/mcp`);
    await shot('04-key-created');

    await page.getByRole('link', { name: 'Memory' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('No memory yet.');
    await shot('04b-memory-empty');

    const agent = await connect('v2', t.mcpUrl, { key: secret, agent: 'babbage' });
    expect((await agent.call('remember', { content: 'The difference engine needs new cogs.' })).isError).toBe(false);
    await agent.close();

    // the write, in Memory and in the Ledger, attributed to the agent
    await page.getByLabel(/^Search/).fill('difference engine');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('main ol').textContent()).toContain('The difference engine needs new cogs.');
    expect(await page.locator('main ol').textContent()).toContain('by babbage');
    expect(await page.locator('nav [aria-current="page"]').textContent()).toBe('Memory');
    await shot('05-memory');
    await page.goto(`${t.url}/dashboard/memory?agent=nobody`);
    expect(await page.locator('main').textContent()).toContain('Nothing found.');
    await shot('05a-memory-nothing-found');
    await page.goBack();
    await page.getByRole('link', { name: 'The difference engine needs new cogs.' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 2, name: 'Versions' }).count()).toBe(1);
    expect(await page.getByRole('row', { name: /babbage/ }).textContent()).toContain('remember');
    await shot('05b-entry');
    // an entry that is not there: a dashboard page with the navigation, status 404
    const gone = await page.goto(`${t.url}/dashboard/memory/00000000-0000-7000-8000-000000000000`);
    expect(gone?.status()).toBe(404);
    expect(await page.getByRole('alert').textContent()).toBe('No such entry in this org.');
    expect(await page.getByRole('button', { name: 'Sign out' }).count()).toBe(1);
    await shot('05c-entry-not-found');

    // a plan two agents share, one step claimed; a memory superseded by a longer one
    const lovelace = await connect('v2', t.mcpUrl, { key: secret, agent: 'lovelace' });
    const engine = await connect('v2', t.mcpUrl, { key: secret, agent: 'babbage' });
    const idOf = (r: { structured: Record<string, unknown> }) => (r.structured.entry as { id: string }).id;
    const planId = idOf(
      await engine.call('plan', {
        title: 'Build the analytical engine',
        steps: [
          { text: 'Design the mill', status: 'done' },
          { text: 'Punch the cards for Bernoulli numbers' },
          { text: 'Cast the store’s columns' },
          { text: 'Abandon the difference engine', status: 'skipped' },
        ],
        scope: 'org',
      }),
    );
    expect((await lovelace.call('plan', { id: planId, claim_step: 1 })).isError).toBe(false);
    const older = idOf(await lovelace.call('remember', { content: 'The engine computes Bernoulli numbers.' }));
    const newer = idOf(
      await lovelace.call('remember', {
        content: 'The engine computes Bernoulli numbers from punched cards.',
        supersedes: older,
      }),
    );
    await lovelace.close();
    await engine.close();
    await page.goto(`${t.url}/dashboard/memory?kind=plan`);
    await page.getByRole('link', { name: /Build the analytical engine/ }).click();
    const doing = page.getByRole('region', { name: /doing/ });
    await expect.poll(() => doing.textContent()).toContain('Punch the cards for Bernoulli numbers');
    expect(await doing.textContent()).toMatch(/claimed by lovelace until \d{4}-\d\d-\d\d \d\d:\d\d UTC/);
    expect(await page.getByRole('region', { name: /skipped/ }).textContent()).toContain(
      'Abandon the difference engine',
    );
    await shot('05d-plan-board');
    await page.goto(`${t.url}/dashboard/memory/${newer}`);
    expect(await page.locator('.diff ins').textContent()).toBe('[inserted:  from punched cards]');
    expect(await page.locator('.diff del').count()).toBe(0);
    await shot('05e-entry-diff');

    await page.getByRole('link', { name: 'Ledger' }).click();
    const events = page.locator('ol.timeline > li');
    await expect.poll(() => events.filter({ hasText: 'lovelace' }).first().textContent()).toContain('remember');
    expect(await events.filter({ hasText: 'babbage' }).last().textContent()).toContain('remember');
    expect(await page.getByRole('status').textContent()).toContain('Chain verified');
    const activity = page.getByRole('img', { name: 'Ledger events per agent per day' });
    expect(await activity.getAttribute('aria-describedby')).toBe('activity-desc');
    // the agents' events only: the member's key (ada@example.com, a member) is not an agent's activity
    expect(await page.locator('#activity-desc').textContent()).toMatch(/: lovelace 3, babbage 2\. /);
    await shot('06-ledger');
    await page.getByText('The numbers, per day').click();
    expect(
      await page.getByRole('row', { name: new RegExp(new Date().toISOString().slice(0, 10)) }).textContent(),
    ).toBeTruthy();
    await shot('06e-ledger-activity-table');
    await page.goto(`${t.url}/dashboard/ledger?op=no.such.op`);
    expect(await page.locator('main').textContent()).toContain('No events match these filters.');
    await shot('06a-ledger-no-match');
    await page.getByRole('link', { name: 'Usage' }).click();
    await expect.poll(h1).toBe('Usage');
    const today = new Date().toISOString().slice(0, 10);
    expect(await page.getByRole('row', { name: new RegExp(today) }).textContent()).toContain('5'); // remember, plan ×2, remember ×2
    expect(await page.locator('main').textContent()).toContain('This org has no plan');
    // the chart is an image with a name and a description that says what it shows
    const chart = page.getByRole('img', { name: 'Tool calls per day, month to date' });
    expect(await chart.getAttribute('aria-describedby')).toBe('chart-desc');
    expect(await page.locator('#chart-desc').textContent()).toContain(`most on ${today} (5)`);
    await shot('06c-usage');
    // on a plan, the quota is drawn as a line across the chart
    const org = (await t.store.admin.listOrgs()).find((o) => o.name === 'Analytical Engines');
    await t.store.admin.putPlan({
      id: 'small',
      requests_per_minute: 60,
      tool_calls_per_month: 40,
      stored_bytes: 4096,
      artifact_bytes: null,
      entry_chars: 2000,
      is_default: false,
    });
    await t.store.admin.setOrgPlan(org?.id as string, 'small');
    await page.reload();
    expect(await page.locator('main').textContent()).toContain('Plan: small.');
    expect(await page.locator('#chart-desc').textContent()).toContain('This month so far: 5 of a quota of 40 a month.');
    expect(await page.locator('svg .quota-label').textContent()).toBe('quota 40');
    await shot('06d-usage-quota');
    // memories anchored to code: filtered by path, a stale one marked in words with the newer entry linked
    const menabrea = await connect('v2', t.mcpUrl, { key: secret, agent: 'menabrea', project: '/work/engine' });
    const anchored = idOf(
      await menabrea.call('remember', {
        content: 'The mill adds in one turn.',
        paths: ['mill/adder.rs'],
        commit: 'c0ffee1',
      }),
    );
    const babbage = await connect('v2', t.mcpUrl, { key: secret, agent: 'babbage', project: '/work/engine' });
    const changed = idOf(
      await babbage.call('remember', { content: 'The mill now carries in a second turn.', paths: ['mill'] }),
    );
    await menabrea.close();
    await babbage.close();
    await page.getByRole('link', { name: 'Memory' }).click();
    await page.getByText('Filters').click();
    await page.getByLabel(/^Path/).fill('mill/adder.rs');
    await page.getByRole('button', { name: 'Search' }).click();
    const stale = page.locator('main ol .stale');
    await expect
      .poll(() => stale.textContent())
      .toMatch(
        /^may be stale: mill\/adder\.rs have a newer memory: The mill now carries in a second turn\. — babbage, \d{4}-\d\d-\d\d$/,
      );
    expect(await page.locator('main ol > li').count()).toBe(2);
    expect(await page.locator('main ol').textContent()).toContain('commit c0ffee1');
    await shot('05f-memory-stale');
    await page.getByRole('link', { name: 'The mill adds in one turn.' }).click();
    await expect
      .poll(() => page.locator('main .stale').textContent())
      .toContain('have a newer memory: The mill now carries in a second turn. — babbage');
    expect(await page.locator('main .stale a').getAttribute('href')).toBe(`/dashboard/memory/${changed}`);
    expect(page.url()).toContain(anchored);
    await shot('05g-entry-stale');
    await page.goto(`${t.url}/dashboard/memory?path=..%2Fmill`);
    expect(await page.getByRole('alert').textContent()).toContain('The path “../mill” must not contain . or .. parts');
    expect(await page.getByLabel(/^Path/).inputValue()).toBe('../mill');
    await shot('05h-memory-bad-path');
    await page.getByRole('link', { name: 'Artifacts' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('No shared artifacts yet.');
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
    await shot('10b-orgs-two');
    await page.getByRole('link', { name: 'Settings, members' }).click();
    expect(await page.getByRole('row', { name: /ada@example.com/ }).textContent()).toContain('owner');
    await shot('11-members');
    await page.getByRole('link', { name: 'Leave this org' }).click();
    await expect.poll(h1).toBe('Leave this org?');
    await shot('11b-leave-confirm');
    await page.getByRole('link', { name: 'Settings, connected apps' }).click();
    await expect.poll(() => page.locator('main').textContent()).toContain('No app has been connected yet.');
    await shot('12-apps-empty');
    const unknown = await page.goto(`${t.url}/dashboard/settings/nothing-here`);
    expect(unknown?.status()).toBe(404);
    expect(await h1()).toBe('Page not found');
    await shot('13-not-found-signed-in');
    await page.getByRole('button', { name: /Sign out/ }).click();
    await expect.poll(() => page.url()).toContain('/dashboard/signin');

    expect(csp).toEqual([]);
    expect(problems).toEqual([]);
  }, 300_000);

  it('signs in, creates a key and revokes it by keyboard alone, with the focus always visible', async () => {
    const owner = new BrowserLike(t.url);
    await owner.get('/dashboard/signup');
    await owner.post('/dashboard/signup', {
      email: 'grace@example.com',
      password: 'correct horse battery',
      org: 'Cobol',
    });
    const kb = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    const kbCsp = cspViolations(kb);
    const keys = kb.keyboard;

    /** Presses Tab until `target` has the focus (at most 40 times), and checks the focus is drawn. */
    const tabTo = async (target: Locator) => {
      for (let i = 0; i < 40; i++) {
        await keys.press('Tab');
        if (await target.evaluate((el) => el === document.activeElement)) {
          const outline = await target.evaluate((el) => {
            const s = getComputedStyle(el);
            return { style: s.outlineStyle, width: Number.parseFloat(s.outlineWidth) };
          });
          expect(outline.style).not.toBe('none');
          expect(outline.width).toBeGreaterThanOrEqual(2);
          return;
        }
      }
      throw new Error(`Tab never reached ${target}`);
    };

    await kb.goto(`${t.url}/dashboard/signin`);
    // the first stop is the skip link, shown once focused
    await keys.press('Tab');
    const skip = kb.getByRole('link', { name: 'Skip to content' });
    expect(await skip.evaluate((el) => el === document.activeElement)).toBe(true);
    expect((await skip.boundingBox())?.x).toBeGreaterThanOrEqual(0);

    await tabTo(kb.getByLabel('Email'));
    await keys.type('grace@example.com');
    await tabTo(kb.getByLabel('Password'));
    await keys.type('correct horse battery');
    await tabTo(kb.getByRole('button', { name: 'Sign in' }));
    await keys.press('Enter');
    await expect.poll(() => kb.getByRole('heading', { level: 1 }).textContent()).toBe('Your orgs');

    await tabTo(kb.getByRole('link', { name: 'Settings, API keys' }));
    await keys.press('Enter');
    await expect.poll(() => kb.getByRole('heading', { level: 1 }).textContent()).toBe('Settings, API keys');
    await tabTo(kb.getByLabel('Name of a new key'));
    await keys.type('keyboard key');
    await tabTo(kb.getByRole('button', { name: 'Create key' }));
    await keys.press('Space');
    await expect.poll(() => kb.getByRole('heading', { level: 1 }).textContent()).toBe('Key “keyboard key” created');
    const secret = (await kb.locator('#secret').textContent()) ?? '';
    const call = () => rawPost(t.mcpUrl, toolCall('recall', { query: 'x' }), headersFor({ key: secret, agent: 'kb' }));
    expect((await call()).status).toBe(200);

    await tabTo(kb.getByRole('link', { name: 'Back to API keys' }));
    await keys.press('Enter');
    await tabTo(kb.getByRole('link', { name: 'Revoke keyboard key' }));
    await keys.press('Enter');
    await expect.poll(() => kb.getByRole('heading', { level: 1 }).textContent()).toBe('Revoke key “keyboard key”?');
    await tabTo(kb.getByRole('button', { name: 'Revoke key' }));
    await keys.press('Space');
    await expect.poll(() => kb.getByRole('status').textContent()).toContain('is revoked');
    expect((await call()).status).toBe(401);
    expect(kbCsp).toEqual([]);
  }, 60_000);
});
