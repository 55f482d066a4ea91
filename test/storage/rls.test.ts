/**
 * Row-level security, below the service: as the service role, a query without an org set sees no
 * row of any org table, and with an org set sees only that org's rows.
 */
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

const ORG_TABLES = ['orgs', 'api_keys', 'projects', 'entries', 'artifacts', 'ledger', 'ledger_heads'];

describe.each(DB_KINDS)('row-level security on %s', (db) => {
  let t: TestServer;
  let orgA: string;
  /** Runs SQL as role cairn_app; statements share one transaction so set_config(…, true) applies. */
  let asApp: (sql: string) => Promise<Record<string, unknown>[]>;
  let closeInspector = async () => {};

  beforeAll(async () => {
    t = await startTestServer(db);
    const a = await t.createOrg('a');
    const b = await t.createOrg('b');
    orgA = a.orgId;
    for (const [org, who] of [
      [a, 'alice'],
      [b, 'bob'],
    ] as const) {
      const s = await connect('v2', t.mcpUrl, { key: org.key, agent: who, project: '/repo' });
      await s.call('remember', { content: `${who} memory` });
      await s.call('artifact_put', { name: 'f', content: 'x' });
      await s.close();
    }
    if (t.pg) {
      const pg = t.pg;
      asApp = (sql) => pg.queryAs('cairn_app', sql);
    } else {
      await t.stop();
      const client = await PGlite.create(join(t.dataDir, 'db'));
      await client.exec('SET ROLE cairn_app');
      asApp = async (sql) => {
        const results = await client.exec(sql);
        return (results.at(-1)?.rows ?? []) as Record<string, unknown>[];
      };
      closeInspector = () => client.close();
    }
  });
  afterAll(async () => {
    await closeInspector();
    await t?.close();
  });

  it('runs as a role that does not bypass row-level security', async () => {
    const [r] = await asApp(`SELECT rolbypassrls, rolsuper FROM pg_roles WHERE rolname = current_user`);
    expect(r).toEqual({ rolbypassrls: false, rolsuper: false });
  });

  it.each(ORG_TABLES)('%s: no org set → no rows', async (table) => {
    expect(await asApp(`SELECT count(*)::int AS n FROM ${table}`)).toEqual([{ n: 0 }]);
  });

  it("with one org set, only that org's rows", async () => {
    const rows = await asApp(
      `SELECT set_config('cairn.org', '${orgA}', false);
       SELECT (SELECT count(*)::int FROM entries) AS entries,
              (SELECT count(DISTINCT org_id)::int FROM ledger) AS ledger_orgs,
              (SELECT count(*)::int FROM ledger_heads) AS heads,
              (SELECT string_agg(content, ',') FROM entries) AS contents`,
    );
    expect(rows).toEqual([{ entries: 1, ledger_orgs: 1, heads: 1, contents: 'alice memory' }]);
  });

  it('refuses to write a row for another org than the one set', async () => {
    const sql = `SELECT set_config('cairn.org', '${orgA}', false);
      INSERT INTO projects (org_id, canonical) VALUES ('00000000-0000-7000-8000-000000000000', '/x')`;
    await expect(asApp(sql)).rejects.toThrow(/row-level security/);
  });
});
