/** forget leaves no content behind: not in the database, not in the blob store; the ledger keeps the event. */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/crypto';
import { connect, type McpSession } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

const CONTENT = 'the-password-is-hunter2-forget-me';
const BYTES = 'artifact-bytes-that-must-vanish';

/** The service's tables (superuser: no row-level security). */
const TABLES = `SELECT c.relname AS t FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
  WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`;
/** Every row of those tables as JSON text, one row each. */
const dumpOf = (tables: string[]) =>
  tables.map((t) => `SELECT '${t}' AS t, row_to_json(x)::text AS row FROM "${t}" x`).join(' UNION ALL ');

describe.each(DB_KINDS)('forget on %s', (db) => {
  let t: TestServer;
  let s: McpSession;
  let orgId: string;
  let entryId: string;
  let artifactId: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    const org = await t.createOrg('acme');
    orgId = org.orgId;
    s = await connect('v2', t.mcpUrl, { key: org.key, agent: 'cleaner', project: '/srv/repo' });
    entryId = ((await s.call('remember', { content: CONTENT })).structured.entry as { id: string }).id;
    artifactId = (
      (await s.call('artifact_put', { name: 'secret.txt', content: BYTES })).structured.artifact as { id: string }
    ).id;
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  async function blobFiles(): Promise<string[]> {
    const dir = join(t.blobsDir, orgId);
    return readdir(dir).catch(() => []);
  }

  it("says plainly what an agent may forget: any shared entry, its own private ones, never another's", async () => {
    const other = await connect('v2', t.mcpUrl, {
      key: (await t.createKey(orgId)).key,
      agent: 'other',
      project: '/srv/repo',
    });
    try {
      const shared = ((await s.call('remember', { content: 'a shared convention' })).structured.entry as { id: string })
        .id;
      const mine = ((await s.call('note', { content: 'my private scratch' })).structured.entry as { id: string }).id;
      const done = await other.call('forget', { ids: [shared, mine], reason: 'tidying' });
      expect(done.structured).toEqual({ forgotten: [shared], not_found: [mine], forgotten_before: [] });
      expect(done.text).toBe(
        `Forgot 1 of 2. Not found, or another agent's private entry: ${mine}. Nothing of those was changed.`,
      );
      expect((await s.call('recall', { query: 'private scratch', scope: 'agent' })).structured.hits).toHaveLength(1);
    } finally {
      await other.close();
    }
  });

  it('stores the bytes under the org, keyed by id, never by name', async () => {
    expect(await blobFiles()).toEqual([artifactId]);
  });

  it('purges content, bytes and all derived from them; the ledger keeps who, when, why and the content hash', async () => {
    // an entry alone in its project: its project row goes with it
    const lone = (
      (await s.call('remember', { content: 'zyxquartz lives only here', project: '/srv/lonely-project' })).structured
        .entry as { id: string }
    ).id;
    const f = await s.call('forget', { ids: [entryId, artifactId, lone], reason: 'contains a password' });
    expect(f.structured).toEqual({
      forgotten: expect.arrayContaining([entryId, lone, artifactId]),
      not_found: [],
      forgotten_before: [],
    });
    expect(f.structured.forgotten).toHaveLength(3);
    expect(await blobFiles()).toEqual([]);
    expect((await s.call('artifact_get', { id: artifactId })).text).toMatch(/not found/);

    const ledger = await s.call('space', { view: 'ledger', entry_id: entryId });
    expect(ledger.structured.events).toEqual([
      expect.objectContaining({
        op: 'forget',
        agent: 'cleaner',
        reason: 'contains a password',
        content_sha256: await sha256Hex(CONTENT),
      }),
      expect.objectContaining({ op: 'remember', agent: 'cleaner' }),
    ]);

    let rows: { t: string; row: string }[];
    if (t.pg) {
      const tables = (await t.pg.query<{ t: string }>(TABLES)).map((r) => r.t);
      rows = await t.pg.query<{ t: string; row: string }>(dumpOf(tables));
    } else {
      await s.close();
      await t.stop();
      const inspect = await PGlite.create(join(t.dataDir, 'db'));
      const tables = (await inspect.query<{ t: string }>(TABLES)).rows.map((r) => r.t);
      rows = (await inspect.query<{ t: string; row: string }>(dumpOf(tables))).rows;
      await inspect.close();
    }
    expect(rows.filter((r) => r.t === 'ledger').length).toBeGreaterThanOrEqual(4);
    expect(rows.some((r) => r.t === 'term_stats')).toBe(true); // the statistics were read too
    for (const r of rows) {
      expect(r.row).not.toContain(CONTENT);
      expect(r.row).not.toContain(BYTES);
      expect(r.row).not.toContain('secret.txt');
      // no word of the forgotten entries (recall's statistics, postings) and no project only they were in
      expect(r.row).not.toContain('hunter2');
      expect(r.row).not.toContain('zyxquartz');
      if (r.t !== 'ledger') expect(r.row).not.toContain('lonely-project');
    }
    expect(rows.some((r) => r.row.includes(entryId))).toBe(true); // only in the ledger
    expect(rows.filter((r) => r.row.includes(entryId)).every((r) => r.t === 'ledger')).toBe(true);
  });
});
