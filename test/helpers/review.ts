/**
 * What the browser tests check on every dashboard page they reach: axe-core finds no serious or
 * critical violation, in light and in dark, at a desktop's and a phone's width; nothing is wider
 * than a phone's screen; and a screenshot of each of the four is kept under
 * test-results/screenshots/ (`<name>-<desktop|mobile>-<light|dark>.png`), to be looked at.
 *
 * Axe's source is evaluated through the DevTools protocol (page.evaluate), which the page's
 * Content-Security-Policy does not govern: the page is checked under its real policy, and any
 * violation of that policy (a style or script the page itself loads without its nonce) is caught
 * by `cspViolations`.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from 'playwright-core';

export const SHOTS = join(import.meta.dirname, '..', '..', 'test-results', 'screenshots');

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const SIZES = [
  { label: 'desktop', width: 1280, height: 800 },
  { label: 'mobile', width: 390, height: 844 },
] as const;

interface AxeResult {
  violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[];
}

/** Axe's serious and critical violations on the page as it is now, one line each. */
export async function axeViolations(page: Page): Promise<string[]> {
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  const result = (await page.evaluate(() =>
    (window as unknown as { axe: { run: (c: Document, o: object) => Promise<unknown> } }).axe.run(document, {
      resultTypes: ['violations'],
    }),
  )) as AxeResult;
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * Reviews the page shown: for each colour scheme and width, a full-page screenshot, axe, and the
 * page's width against the window's. Returns what failed (empty when all is well), then puts the
 * page back to light at the width it had.
 */
export async function review(page: Page, name: string): Promise<string[]> {
  const before = page.viewportSize();
  const problems: string[] = [];
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    for (const size of SIZES) {
      await page.setViewportSize({ width: size.width, height: size.height });
      await page.screenshot({ path: join(SHOTS, `${name}-${size.label}-${scheme}.png`), fullPage: true });
      const where = `${name} ${size.label} ${scheme}`;
      for (const v of await axeViolations(page)) problems.push(`${where}: ${v}`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      if (overflow > 0) problems.push(`${where}: the page is ${overflow} px wider than the window`);
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (before) await page.setViewportSize(before);
  return problems;
}

/** Collects the page's reports of Content-Security-Policy violations (Chromium logs each as a console error). */
export function cspViolations(page: Page): string[] {
  const seen: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy/i.test(m.text())) seen.push(m.text());
  });
  return seen;
}
