/**
 * Memories anchored to code (docs/design.md, "Anchors"): write tools take `paths` and `commit`,
 * recall finds what is anchored to the files an agent is about to change, and a newer entry
 * anchored to an overlapping path marks the older ones as possibly stale until they are written
 * again or superseded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

interface Hit {
  id: string;
  content: string;
  paths: string[] | null;
  commit: string | null;
  stale: { paths: string[]; since: string; by: string; entry: string; says: string } | null;
}
interface Result {
  isError?: boolean;
  content: { text: string }[];
  structuredContent: { entry: Hit; hits: Hit[]; deduplicated?: boolean };
}

describe.each(TARGETS)('anchors on %s', (db) => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('coders'));
  });
  afterAll(() => t?.close());

  const call = async (agent: string, name: string, args: Record<string, unknown>) => {
    const res = await rawPost(
      t.mcpUrl,
      toolCall(name, args),
      headersFor({ key, agent, project: 'https://github.com/acme/shop.git' }),
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: Result }).result;
  };
  const text = (r: Result) => r.content[0]?.text ?? '';

  it('stores anchors, finds entries by the files asked and their folders, and marks what a newer entry may have changed', async () => {
    const old = await call('alice', 'remember', {
      content: 'Orders are priced in the service before they are saved',
      paths: ['./src//orders/service.ts'],
      commit: 'ABCDEF1',
    });
    expect(old.structuredContent.entry).toMatchObject({
      paths: ['src/orders/service.ts'],
      commit: 'abcdef1',
      stale: null,
    });
    const elsewhere = await call('alice', 'remember', {
      content: 'Invoices are rendered as PDF',
      paths: ['src/invoices'],
    });
    // an observation on the file contradicts no memory: a passing test marks nothing
    await call('bob', 'observe', { content: 'Fixed: the order tests pass again', paths: ['src/orders/service.ts'] });
    await call('bob', 'decide', {
      content: 'Price in integer cents',
      rationale: 'no float rounding',
      paths: ['src/orders/service.ts'],
    });
    const between = new Date().toISOString();
    const unmarked = await call('carol', 'recall', { query: '', paths: ['src/orders/service.ts'] });
    expect(unmarked.structuredContent.hits.map((h) => h.stale)).toEqual([null, null, null]);
    await new Promise((r) => setTimeout(r, 5));
    // bob writes a newer memory on the folder: alice's memory about a file in it may no longer hold
    const newer = await call('bob', 'remember', {
      content: 'Orders are now priced by the pricing worker, not the service',
      paths: ['src/orders/'],
    });
    const newerId = newer.structuredContent.entry.id;
    // read as of before it, the memory was not yet marked
    const then = await call('carol', 'recall', { query: '', paths: ['src/orders/service.ts'], as_of: between });
    expect(then.structuredContent.hits.find((h) => h.id === old.structuredContent.entry.id)?.stale).toBeNull();

    // what do we know about the file I am about to change? the entry on it and the one on its folder
    const about = await call('carol', 'recall', { query: '', paths: ['src/orders/service.ts'], kinds: ['memory'] });
    expect(about.structuredContent.hits.map((h) => h.id)).toEqual([newerId, old.structuredContent.entry.id]);
    const marked = about.structuredContent.hits[1] as Hit;
    expect(marked.stale).toMatchObject({ paths: ['src/orders/service.ts'], by: 'bob', entry: newerId });
    expect(text(about)).toMatch(
      new RegExp(
        `may be stale: a newer memory on src/orders/service\\.ts: "Orders are now priced by the pricing worker, not the service" — bob, \\d{4}-\\d\\d-\\d\\d, id ${newerId}`,
      ),
    );
    expect(about.structuredContent.hits.map((h) => h.id)).not.toContain(elsewhere.structuredContent.entry.id);

    // asked in words, both come as their words rank them, the older one with the mark that names the newer
    const asked = await call('carol', 'recall', { query: 'how are orders priced' });
    const byId = new Map(asked.structuredContent.hits.map((h) => [h.id, h]));
    expect(byId.get(newerId)?.stale).toBeNull();
    expect(byId.get(old.structuredContent.entry.id)?.stale).toMatchObject({ by: 'bob', entry: newerId });

    // written again, it is confirmed and fresh again
    const again = await call('alice', 'remember', {
      content: 'Orders are priced in the service before they are saved',
      paths: ['src/orders/service.ts'],
    });
    expect(again.structuredContent.deduplicated).toBe(true);
    expect(again.structuredContent.entry.stale).toBeNull();
  });

  it("is not marked stale by another agent's private entry", async () => {
    const shared = await call('alice', 'remember', {
      content: 'The cache key has the tenant id',
      paths: ['src/cache.ts'],
    });
    await call('bob', 'remember', {
      content: 'private: trying a new cache key',
      paths: ['src/cache.ts'],
      scope: 'agent',
    });
    const seen = await call('carol', 'recall', { query: '', paths: ['src/cache.ts'] });
    expect(seen.structuredContent.hits).toEqual([
      expect.objectContaining({ id: shared.structuredContent.entry.id, stale: null }),
    ]);
    // bob, who wrote it, sees the mark
    const his = await call('bob', 'recall', { query: '', paths: ['src/cache.ts'] });
    expect(his.structuredContent.hits.find((h) => h.id === shared.structuredContent.entry.id)?.stale).toMatchObject({
      by: 'bob',
    });
  });

  it('refuses paths outside the repository and commits that are not hex, naming the field', async () => {
    const outside = await call('alice', 'remember', { content: 'x', paths: ['../etc/passwd'] });
    expect(outside.isError).toBe(true);
    expect(text(outside)).toMatch(/paths.*must not contain \. or \.\. parts/);
    const absolute = await call('alice', 'remember', { content: 'x', paths: ['/etc/passwd'] });
    expect(text(absolute)).toMatch(/paths.*must be a path inside the repository/);
    const commit = await call('alice', 'remember', { content: 'x', commit: 'main' });
    expect(text(commit)).toMatch(/commit.*hex commit id/);
  });
});
