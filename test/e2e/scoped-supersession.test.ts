/**
 * Scoped supersession (contract §4): a project entry may replace an org entry for its project
 * only — there the replacement is current and the original superseded; everywhere else the
 * original stays current. Recall (now and as of a time), the brief, history, forget and the
 * write's own text follow it; a private entry never replaces a shared one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const SHOP = '/srv/shop';
const WEB = '/srv/web';

interface Hit {
  id: string;
  superseded_by: string | null;
  supersedes: string | null;
}
interface BriefOut {
  sections: { section: string; items: { id: string }[] }[];
}
interface HistoryOut {
  entry: { id: string; superseded_by: string | null };
  chain: { id: string; superseded_by: string | null }[];
  replaced_in: { project: string; id: string }[];
}

describe.each(TARGETS)('scoped supersession on %s', (db) => {
  let t: TestServer;
  let key: string;
  let shop: McpSession;
  let web: McpSession;
  let org: McpSession;
  let yarn: string;
  let pnpm: string;
  let writtenBetween: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
    shop = await connect('v2', t.mcpUrl, { key, agent: 'bob', project: SHOP });
    web = await connect('v2-modern', t.mcpUrl, { key, agent: 'carol', project: WEB });
    org = await connect('v2', t.mcpUrl, { key, agent: 'alice' });
    yarn = entryId(
      await org.call('remember', {
        content: 'The org installs JavaScript packages with Yarn.',
        tags: ['convention'],
        scope: 'org',
      }),
    );
    // the web project exists for readers: something of its own is stored there
    expect((await web.call('remember', { content: 'The web app is built with Vite.' })).isError).toBe(false);
    await new Promise((r) => setTimeout(r, 20));
    writtenBetween = new Date().toISOString();
    await new Promise((r) => setTimeout(r, 20));
    const r = await shop.call('remember', {
      content: 'This repo installs JavaScript packages with pnpm, not Yarn.',
      tags: ['convention'],
      supersedes: yarn,
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.text).toContain(`It replaces org entry ${yarn} in project ${SHOP} only`);
    expect(r.text).toContain('everywhere else it stays current');
    // what the text says reaches clients that show the model the structured content too
    expect(r.structured.notice).toBe(
      `It replaces org entry ${yarn} in project ${SHOP} only: there it leaves default recall; everywhere else it stays current.`,
    );
    pnpm = entryId(r);
  });
  afterAll(async () => {
    await Promise.all([shop?.close(), web?.close(), org?.close()]);
    await t?.close();
  });

  const hits = async (s: McpSession, args: Record<string, unknown>) => {
    const r = await s.call('recall', { query: 'install JavaScript packages', ...args });
    expect(r.isError, r.text).toBe(false);
    return r.structured.hits as Hit[];
  };
  const ids = (h: Hit[]) => h.map((x) => x.id);
  const briefIds = async (s: McpSession) => {
    const r = await s.call('space', { view: 'brief' });
    expect(r.isError, r.text).toBe(false);
    return (r.structured.brief as BriefOut).sections.flatMap((x) => x.items.map((i) => i.id));
  };
  const history = async (s: McpSession, id: string) => {
    const r = await s.call('space', { view: 'history', entry_id: id });
    expect(r.isError, r.text).toBe(false);
    return { text: r.text, h: r.structured.history as HistoryOut };
  };

  it('makes the replacement current in its project and leaves the org entry current everywhere else', async () => {
    const inShop = await hits(shop, {});
    expect(ids(inShop)).toContain(pnpm);
    expect(ids(inShop)).not.toContain(yarn);
    const all = await hits(shop, { include_superseded: true });
    expect(all.find((h) => h.id === yarn)?.superseded_by).toBe(pnpm);
    expect(all.find((h) => h.id === pnpm)?.supersedes).toBe(yarn);

    const inWeb = await hits(web, {});
    expect(ids(inWeb)).toContain(yarn);
    expect(ids(inWeb)).not.toContain(pnpm);
    expect(inWeb.find((h) => h.id === yarn)?.superseded_by).toBeNull();
    // a read of the whole org, in no project: the org entry is current
    expect((await hits(org, {})).find((h) => h.id === yarn)?.superseded_by).toBeNull();

    expect(await briefIds(shop)).toContain(pnpm);
    expect(await briefIds(shop)).not.toContain(yarn);
    expect(await briefIds(web)).toContain(yarn);
  });

  it('reads the project as it stood before the replacement with as_of', async () => {
    const before = await hits(shop, { as_of: writtenBetween });
    expect(ids(before)).toContain(yarn);
    expect(ids(before)).not.toContain(pnpm);
    expect(before.find((h) => h.id === yarn)?.superseded_by).toBeNull();
    const after = await hits(shop, { as_of: new Date().toISOString(), include_superseded: true });
    expect(after.find((h) => h.id === yarn)?.superseded_by).toBe(pnpm);
  });

  it('tells the story from where the reader stands', async () => {
    const fromShop = await history(shop, yarn);
    expect(fromShop.h.chain.map((c) => c.id)).toEqual([yarn, pnpm]);
    expect(fromShop.h.entry.superseded_by).toBe(pnpm);
    expect(fromShop.text).toContain('version 1, superseded.');
    const fromWeb = await history(web, yarn);
    expect(fromWeb.h.chain.map((c) => c.id)).toEqual([yarn]);
    expect(fromWeb.h.entry.superseded_by).toBeNull();
    expect(fromWeb.h.replaced_in).toEqual([{ project: SHOP, id: pnpm }]);
    expect(fromWeb.text).toContain('version 1, current.');
    expect(fromWeb.text).toContain(`Replaced for project ${SHOP} (by ${pnpm}) only; current everywhere else.`);
    expect(fromWeb.text).not.toContain('nothing supersedes it');
  });

  it('refuses a second replacement in the same project and a private one, and lets another project replace it too', async () => {
    const again = await shop.call('remember', { content: 'This repo uses npm.', supersedes: yarn });
    expect(again.isError).toBe(true);
    expect(again.text).toContain(`supersedes: ${yarn} is already replaced in project ${SHOP} by ${pnpm}`);
    const mine = await web.call('remember', { content: 'I use Bun myself.', scope: 'agent', supersedes: yarn });
    expect(mine.isError).toBe(true);
    expect(mine.text).toContain('would be read by you alone: write the replacement with scope org (or project');
    // nothing changed by the refusals
    expect(ids(await hits(web, {}))).toContain(yarn);

    const npm = entryId(
      await web.call('remember', { content: 'The web app installs packages with npm.', supersedes: yarn }),
    );
    expect(ids(await hits(web, {}))).not.toContain(yarn);
    expect(ids(await hits(shop, {}))).toContain(pnpm);
    expect((await history(org, yarn)).h.replaced_in).toEqual([
      { project: SHOP, id: pnpm },
      { project: WEB, id: npm },
    ]);
    // forgetting a project's replacement makes the org entry current there again, and only there
    expect((await web.call('forget', { id: npm, reason: 'back to the org rule' })).isError).toBe(false);
    expect(ids(await hits(web, {}))).toContain(yarn);
    expect(ids(await hits(shop, {}))).not.toContain(yarn);
    expect((await history(org, yarn)).h.replaced_in).toEqual([{ project: SHOP, id: pnpm }]);
  });

  it('replaces everywhere when the replacement is org-wide, the project replacement still current in its project', async () => {
    const bun = entryId(
      await org.call('remember', {
        content: 'The org installs JavaScript packages with Bun.',
        scope: 'org',
        supersedes: yarn,
      }),
    );
    const inWeb = ids(await hits(web, {}));
    expect(inWeb).toContain(bun);
    expect(inWeb).not.toContain(yarn);
    const inShop = ids(await hits(shop, {}));
    expect(inShop).toEqual(expect.arrayContaining([pnpm, bun]));
    expect(inShop).not.toContain(yarn);
  });
});
