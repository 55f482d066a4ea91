/**
 * The pages of a self-hosted install's first start, in Chromium, reviewed like every other page
 * (axe, screenshots at desktop and mobile widths in light and dark, no overflow, no CSP report):
 * the setup link's page, the page of a link already used, and sign-up when it is closed.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cspViolations, review, SHOTS } from '../helpers/review';
import { type Serving, serve, stop } from '../helpers/serve-cli';

const CHROMIUM = '/usr/bin/chromium';

describe.runIf(existsSync(CHROMIUM) || process.env.CI)('first start in Chromium', () => {
  let dataDir: string;
  let s: Serving;
  let browser: Browser;
  let page: Page;
  let csp: string[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-first-'));
    s = await serve({ CAIRN_DATA_DIR: dataDir, CAIRN_SIGNUP: 'closed' }, { key: true, link: true });
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    csp = cspViolations(page);
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    if (s) await stop(s);
    await rm(dataDir, { recursive: true, force: true });
  });

  it('shows the setup page, makes the owner of default, then says the link is used; sign-up is closed', async () => {
    const problems: string[] = [];
    await page.goto(s.link as string);
    expect(await page.getByRole('heading', { level: 1 }).textContent()).toMatch(/set/i);
    problems.push(...(await review(page, '00c-setup')));

    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page
      .getByRole('button')
      .filter({ hasText: /create|set up|own/i })
      .first()
      .click();
    await page.waitForURL(/\/dashboard\/memory/);

    // the link served once: a second visit says so, on a page of its own
    const again = await page.context().newPage();
    const res = await again.goto(s.link as string);
    expect(res?.status()).toBe(410);
    problems.push(...(await review(again, '00d-setup-used')));

    const signup = await again.goto(`${s.url}/dashboard/signup`);
    expect(signup?.status()).toBeGreaterThanOrEqual(200);
    expect(await again.locator('main').textContent()).toMatch(/closed/i);
    problems.push(...(await review(again, '00e-signup-closed')));

    expect(problems).toEqual([]);
    expect(csp).toEqual([]);
  });
});
