/**
 * Memory you can take with you (docs/design.md, "Export and import"): an org exported from one
 * install over /admin and imported into another (PGlite → Postgres, Postgres → PGlite) answers
 * recall, space, artifact_get and ledger verify as it did; export → import → export gives the same
 * lines but the header; private notes leave only by the owner's choice, which the ledger records;
 * a changed, cut or misplaced file is refused and leaves nothing behind (test/e2e/import-refusals.test.ts:
 * each crafted file).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/domain/ids';
import { verifyExport } from '../../src/operator/portable';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { ADMIN_TOKEN, type DbKind, startTestServer, type TestServer } from '../helpers/server';

const admin = (t: TestServer, path: string, init: RequestInit = {}) =>
  fetch(`${t.url}/admin${path}`, { ...init, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });

async function exportOf(t: TestServer, orgId: string, withPrivate = false): Promise<string[]> {
  const res = await admin(t, `/orgs/${orgId}/export${withPrivate ? '?private=true' : ''}`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
  return (await res.text()).trimEnd().split('\n');
}

async function importInto(t: TestServer, orgId: string, lines: string[]) {
  const res = await admin(t, `/orgs/${orgId}/import`, { method: 'POST', body: `${lines.join('\n')}\n` });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function* each(lines: string[]) {
  yield* lines;
}

/** What an agent sees of an org: recall on a few questions, space views, an artifact, a plan's history. */
async function answers(s: McpSession, planId: string) {
  const recall = async (args: Record<string, unknown>) =>
    ((await s.call('recall', args)).structured.hits as Record<string, unknown>[]).map((h) => [
      h.id,
      h.content,
      h.score,
    ]);
  const overview = (await s.call('space', {})).structured as Record<string, unknown>;
  return {
    recall: [
      await recall({ query: 'walrus deploy', limit: 20 }),
      await recall({ query: 'walrus', include_superseded: true, limit: 20 }),
      await recall({ query: '', paths: ['src/walrus'] }),
      // an org rule the walrus project replaced for itself only: superseded there, current elsewhere
      ...(await Promise.all(
        [WALRUS, undefined].map(async (project) =>
          (
            (
              await s.call('recall', { query: 'walrus lint', project, include_superseded: true })
            ).structured.hits as Record<string, unknown>[]
          ).map((h) => [h.id, h.superseded_by]),
        ),
      )),
    ],
    counts: overview.counts,
    artifact: (await s.call('artifact_get', { name: 'walrus.bin' })).content,
    history: (await s.call('space', { view: 'history', entry_id: planId })).text,
  };
}

/** A project (an absolute path) that replaced an org rule for itself only. */
const WALRUS = '/srv/walrus';

// PGlite → Postgres, and back; a Node install → a Worker's database (through the Worker's /admin)
const PAIRS: [DbKind, DbKind][] = [
  ['pglite', 'postgres'],
  ['postgres', 'pglite'],
  ['pglite', 'workers'],
];

describe.each(PAIRS)('export from %s, import into %s', (fromDb, toDb) => {
  let from: TestServer;
  let to: TestServer;
  let orgId: string;
  let planId: string;
  let ann: McpSession;
  let bob: McpSession;

  beforeAll(async () => {
    // one after the other: an embedded database's start holds the event loop for seconds on a slow
    // machine, and a Postgres connection opened meanwhile timed out (5 s) with its answer unread
    from = await startTestServer(fromDb);
    to = await startTestServer(toDb);
    const org = await from.createOrg('walrus works');
    orgId = org.orgId;
    ann = await connect('v2', from.mcpUrl, { key: org.key, agent: 'ann' });
    bob = await connect('v2', from.mcpUrl, { key: org.key, agent: 'bob' });
    const project = 'github.com/acme/walrus';
    await ann.call('remember', {
      content: 'Walrus deploys go through the blue pipeline',
      tags: ['deploy'],
      paths: ['src/walrus/deploy.ts'],
      commit: 'abc1234',
      project,
    });
    const old = entryId(await ann.call('decide', { content: 'Walrus uses Redis for queues', rationale: 'fast' }));
    await bob.call('decide', { content: 'Walrus uses Postgres for queues', rationale: 'one store', supersedes: old });
    planId = entryId(await ann.call('plan', { title: 'walrus deploy v2', steps: [{ text: 'cut the walrus branch' }] }));
    await bob.call('plan', { id: planId, status: 'active', claim_step: 0 });
    await bob.call('note', { content: 'bob private walrus hunch: the deploy flakes on Fridays' });
    await ann.call('observe', { content: 'walrus deploy failed on the blue pipeline', source: 'ci' });
    const lint = entryId(await ann.call('remember', { content: 'Walrus repos lint with ESLint', scope: 'org' }));
    const own = await bob.call('remember', {
      content: 'This walrus repo lints with Biome',
      project: WALRUS,
      supersedes: lint,
    });
    expect(own.text).toContain(`in project ${WALRUS} only`);
    const doomed = entryId(await ann.call('remember', { content: 'walrus secret that must go' }));
    await ann.call('forget', { id: doomed, reason: 'pasted by mistake' });
    await ann.call('artifact_put', {
      name: 'walrus.bin',
      content_base64: 'AAECAwT/',
      content_type: 'application/x-walrus',
    });
  });
  afterAll(async () => {
    await ann?.close();
    await bob?.close();
    await Promise.all([from?.close(), to?.close()]);
  });

  it('leaves private notes out unless the owner chooses, and then records the choice in the ledger', async () => {
    const shared = await exportOf(from, orgId);
    const text = shared.join('\n');
    expect(text).not.toContain('bob private walrus hunch');
    expect(text).not.toContain('walrus secret that must go');
    const header = JSON.parse(shared[0] as string);
    expect(header).toMatchObject({ type: 'cairn-export', format: 1, private: false, chain_id: orgId });
    const verified = await verifyExport(each(shared));
    expect(verified).toMatchObject({ ok: true, broken_at: null, sealed: 1, events: header.head.seq });

    const before = (await admin(from, `/orgs/${orgId}/ledger/verify`).then((r) => r.json())).events;
    const full = await exportOf(from, orgId, true);
    expect(full.join('\n')).toContain('bob private walrus hunch');
    const exportEvent = full.map((l) => JSON.parse(l)).find((l) => l.type === 'event' && l.op === 'export');
    expect(exportEvent).toMatchObject({
      seq: before + 1,
      agent: 'admin-api',
      reason: expect.stringMatching(/private/),
    });
    expect(await verifyExport(each(full))).toMatchObject({ ok: true, events: before + 1 });
  });

  it('refuses a non-empty org, an id this install holds, a changed or cut file, and leaves nothing behind', async () => {
    const shared = await exportOf(from, orgId);
    // the org it came from is not empty
    const busy = await importInto(from, orgId, shared);
    expect(busy.status).toBe(409);
    expect(JSON.stringify(busy.body)).toMatch(/not empty/);
    // a new org of the same install: the entries' ids are taken
    const same = uuidv7();
    const taken = await importInto(from, same, shared);
    expect(taken.status).toBe(409);
    expect(JSON.stringify(taken.body)).toMatch(/already used in this install/);

    // an event changed: refused at that event, and offline verification names it
    const changed = shared.map((l) => {
      const o = JSON.parse(l);
      return o.type === 'event' && o.seq === 3 ? JSON.stringify({ ...o, agent: 'mallory' }) : l;
    });
    expect(await verifyExport(each(changed))).toMatchObject({ ok: false, broken_at: 3, events: 2 });
    const target = uuidv7();
    const bad = await importInto(to, target, changed);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toMatch(/seq 3/);
    // cut before its end line
    const cut = await importInto(to, target, shared.slice(0, -3));
    expect(cut.status).toBe(400);
    expect(JSON.stringify(cut.body)).toMatch(/not whole/);
    await expect(verifyExport(each(shared.slice(0, -1)))).rejects.toThrow(/not whole/);

    // nothing was left, the org the import made included (the next test imports the same ids)
    const orgs = (await admin(to, '/orgs').then((x) => x.json())).orgs as { id: string }[];
    expect(orgs.map((o) => o.id)).not.toContain(target);
  });
  it('imports into another install, which answers as the original did, and re-exports the same lines', async () => {
    const full = await exportOf(from, orgId, true);
    const target = uuidv7();
    const r = await importInto(to, target, full);
    expect(r.status).toBe(201);
    expect(r.body.imported).toMatchObject({ entry: 8, version: 1, artifact: 1, event: expect.any(Number) });

    // export → import → export: the same lines but the header (the org's id and the export's time)
    const again = await exportOf(to, target);
    const fullShared = await exportOf(from, orgId);
    expect(again.slice(1)).toEqual(fullShared.slice(1).map((l) => l));
    const [h1, h2] = [JSON.parse(fullShared[0] as string), JSON.parse(again[0] as string)];
    expect(h2.org.id).toBe(target);
    expect(h2.chain_id).toBe(orgId);
    expect(h2.head).toEqual(h1.head);

    // the same answers to the same agents, once the new install has a key for them
    const { key } = await to.createKey(target, 'moved');
    const ann2 = await connect('v2', to.mcpUrl, { key, agent: 'ann' });
    const bob2 = await connect('v2', to.mcpUrl, { key, agent: 'bob' });
    try {
      expect(await answers(ann2, planId)).toEqual(await answers(ann, planId));
      expect(await answers(bob2, planId)).toEqual(await answers(bob, planId));
      const note = await bob2.call('recall', { query: 'hunch Fridays' });
      expect(note.text).toContain('bob private walrus hunch');
      expect((await ann2.call('recall', { query: 'hunch Fridays' })).text).not.toContain('bob private walrus hunch');
      // the chain goes on: the new key's event and a new write hash after the imported head
      await ann2.call('remember', { content: 'Walrus moved to the new install' });
      const verify = await admin(to, `/orgs/${target}/ledger/verify`).then((x) => x.json());
      expect(verify).toMatchObject({ ok: true, events: h1.head.seq + 2 }); // the key's event, the write's
    } finally {
      await ann2.close();
      await bob2.close();
    }
  });
});
