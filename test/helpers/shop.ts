/**
 * What the real-client tests (test/e2e/claude-code.test.ts, codex.test.ts) start from: an org whose
 * agent alice wrote, in project github.com/acme/shop, a decision and a convention (the brief shows
 * both) and an observation (a fact, not a rule: the brief leaves it out, recall on a prompt about
 * refunds finds it); a git repository of that project and a home folder, with `cairn connect CLIENT`
 * run there as a user would.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { cairn, type Ran, type Repo, tempRepo } from './agent';
import { connect, entryId, type McpSession } from './clients';
import { startTestServer, type TestServer } from './server';

export const SHOP_REMOTE = 'https://github.com/acme/shop.git';

export interface Shop {
  t: TestServer;
  key: string;
  alice: McpSession;
  /** The entries' ids. */
  pnpm: string;
  cents: string;
  webhooks: string;
  repo: Repo;
  home: string;
  /** What `cairn connect CLIENT` printed. */
  connected: Ran;
  close(): Promise<void>;
}

export async function connectedShop(client: 'claude-code' | 'codex'): Promise<Shop> {
  const t = await startTestServer('pglite');
  const { key } = await t.createOrg('acme');
  const alice = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: SHOP_REMOTE });
  const pnpm = entryId(
    await alice.call('decide', {
      content: 'This repo installs packages with pnpm, never npm.',
      rationale: 'one lockfile',
    }),
  );
  const cents = entryId(
    await alice.call('remember', {
      content: 'Order totals are integer cents; rounding happens once, in applyDiscount.',
      tags: ['convention'],
      paths: ['src/orders/service.ts'],
    }),
  );
  const webhooks = entryId(
    await alice.call('observe', {
      content: 'Refund webhooks from the payment provider arrive twice; the handler dedupes on the event id.',
      source: 'incident review',
    }),
  );
  const repo = tempRepo(SHOP_REMOTE, { 'src/orders/service.ts': 'export const total = 1;\n' });
  const home = mkdtempSync(join(tmpdir(), `cairn-${client}-home-`));
  const connected = await cairn(['connect', client], {
    cwd: repo.dir,
    env: { HOME: home, CAIRN_URL: t.url, CAIRN_KEY: key },
  });
  expect(connected.code, connected.stderr).toBe(0);
  return {
    t,
    key,
    alice,
    pnpm,
    cents,
    webhooks,
    repo,
    home,
    connected,
    async close() {
      await alice.close();
      await t.close();
      repo.remove();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
