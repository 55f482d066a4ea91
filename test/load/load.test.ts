/**
 * Load, bounded and on loopback: agents of two orgs write, recall and store artifacts concurrently
 * (CAIRN_LOAD_SECONDS, 10 s here; `npm run load` for the long run and its figures), one org under a
 * rate limit. Afterwards every acknowledged write is found by recall, each org's ledger verifies and
 * holds exactly its acknowledged writes, and nothing failed but the configured 429s.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, DB_KINDS, startTestServer, type TestServer } from '../helpers/server';
import { runLoad } from './run';

const SECONDS = Number(process.env.CAIRN_LOAD_SECONDS ?? 10);

describe.each(DB_KINDS)('load on %s', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(db);
  });
  afterAll(() => t?.close());

  it(
    'loses no acknowledged write, keeps each ledger whole, and fails nothing but configured 429s',
    async () => {
      const a = await t.createOrg('load-a');
      const b = await t.createOrg('load-b');
      await t.store.admin.putPlan({
        id: 'load-limited',
        // a minute's allowance may go at once: 120 is used up within the run on any machine
        requests_per_minute: 120,
        tool_calls_per_month: null,
        stored_bytes: null,
        artifact_bytes: null,
        entry_chars: null,
        is_default: false,
      });
      await t.store.admin.setOrgPlan(b.orgId, 'load-limited');
      const result = await runLoad({
        mcpUrl: t.mcpUrl,
        adminUrl: `${t.url}/admin`,
        adminToken: ADMIN_TOKEN,
        orgs: [
          { id: a.orgId, key: a.key },
          { id: b.orgId, key: b.key },
        ],
        agents: 16,
        seconds: SECONDS,
        beforeChecks: async () => {
          await t.store.admin.setOrgPlan(b.orgId, null);
        },
      });
      console.log(
        `load on ${db}: ${JSON.stringify({ ...result, errors: result.errors.length, missing: result.missing.length })}`,
      );
      expect(result.errors).toEqual([]);
      expect(result.writes).toBeGreaterThan(50);
      expect(result.limited).toBeGreaterThan(0); // the limited org met its limit
      expect(result.missing).toEqual([]);
      for (const l of result.ledgers) expect(l).toMatchObject({ ok: true, broken_at: null, events: l.expected });
    },
    120_000 + SECONDS * 2000,
  );
});
