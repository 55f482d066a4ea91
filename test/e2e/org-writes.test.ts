/**
 * One org under many writers (docs/design.md): a write takes no shared row of its org — its
 * ledger event, statistics, counts and usage are left pending and folded by whichever statement
 * holds the org's seal — and yet every write answered is in the ledger once, in a chain that
 * verifies, and in every count and statistic a reader sees.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor, rawPost, toolCall } from '../helpers/clients';
import { ADMIN_TOKEN, startTestServer, TARGETS, type TestServer } from '../helpers/server';

interface Rpc {
  result?: { isError?: boolean; structuredContent?: Record<string, unknown> };
}

/** The seal lock's key (sql/entries/cairn_org_seal.sql). */
const SEAL = 'SELECT pg_advisory_xact_lock(1128878670, hashtext($1::text))';

describe.each(TARGETS)('one org under many writers on %s', (db) => {
  let t: TestServer;
  let orgId: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ orgId, key } = await t.createOrg('busy'));
  });
  afterAll(() => t?.close());

  const call = async (agent: string, name: string, args: Record<string, unknown>) => {
    const res = await rawPost(t.mcpUrl, toolCall(name, args), headersFor({ key, agent }));
    expect(res.status).toBe(200);
    const body = (await res.json()) as Rpc;
    expect(body.result?.isError).toBeFalsy();
    return body.result?.structuredContent as Record<string, unknown>;
  };
  const verify = async () =>
    (
      await fetch(`${t.url}/admin/orgs/${orgId}/ledger/verify`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      })
    ).json();

  it('answers 64 parallel writes of 8 agents: each in the ledger once, the chain whole, every count and statistic exact', async () => {
    const before = (await verify()) as { events: number };
    const tools = ['remember', 'observe', 'decide', 'note'] as const;
    const writes = Array.from({ length: 64 }, (_, i) => {
      const tool = tools[i % 4] as string;
      const agent = `agent-${i % 8}`;
      const args: Record<string, unknown> = {
        content: `parallel write ${i}: the ${['cache', 'queue', 'index', 'router'][i % 4]} of service ${i % 5}`,
        ...(tool === 'decide' ? { rationale: 'measured' } : {}),
        ...(i % 3 === 0 ? { scope: 'agent' } : { project: `github.com/acme/svc-${i % 2}` }),
      };
      // a note is private unless told otherwise (contract §3)
      return { tool, agent, args, private: i % 3 === 0 || tool === 'note' };
    });
    const answers = await Promise.all(writes.map((w) => call(w.agent, w.tool, w.args)));
    const ids = answers.map((a) => (a.entry as { id: string }).id);

    // every event, once, numbered without gaps, and the chain verifies
    expect(await verify()).toEqual({ ok: true, events: before.events + 64, broken_at: null });
    const ledger = await call('agent-0', 'space', { view: 'ledger', scope: 'org', limit: 500 });
    const events = ledger.events as { seq: number; entry_id: string; agent: string; op: string }[];
    const seqs = events.map((e) => e.seq).sort((a, b) => a - b);
    expect(new Set(seqs).size).toBe(seqs.length);
    for (let i = 0; i < writes.length; i++) {
      // another agent's private notes are not in agent-0's view
      const w = writes[i] as (typeof writes)[number];
      const mine = events.filter((e) => e.entry_id === ids[i]);
      if (w.private && w.agent !== 'agent-0') expect(mine).toEqual([]);
      else expect(mine).toEqual([expect.objectContaining({ agent: w.agent, op: w.tool })]);
    }

    // counts: each kind as written, in the caller's read scope (its own private entries and the shared ones)
    const overview = await call('agent-0', 'space', { scope: 'org' });
    const seen = writes.filter((w) => !w.private || w.agent === 'agent-0');
    const kinds = { remember: 'memory', observe: 'observation', decide: 'decision', note: 'note' } as const;
    for (const [tool, kind] of Object.entries(kinds)) {
      expect((overview.counts as Record<string, number>)[kind] ?? 0, kind).toBe(
        seen.filter((w) => w.tool === tool).length,
      );
    }
    // each agent's activity: of its 8 writes, agent-0 sees the shared ones (and all of its own)
    const agents = await call('agent-0', 'space', { view: 'agents' });
    for (let a = 0; a < 8; a++) {
      const visible = seen.filter((w) => w.agent === `agent-${a}`).length;
      const line = (agents.agents as { agent: string; events: number }[]).find((x) => x.agent === `agent-${a}`);
      // an agent whose every write agent-0 may not see is not listed at all
      if (visible === 0) expect(line).toBeUndefined();
      else expect(line).toMatchObject({ events: visible });
    }
    // the month's calls: the 64 writes and the reads before this one
    expect((overview.quota as { tool_calls_this_month: number }).tool_calls_this_month).toBe(64 + 1);

    if (t.pg) {
      // recall's statistics are what a recount from the entries gives, and nothing is left pending
      const stats = async () =>
        t.pg?.query(
          `SELECT (SELECT jsonb_agg(jsonb_build_array(lexeme, agent_key, df) ORDER BY lexeme, agent_key)
               FROM term_stats WHERE org_id = $1) AS terms,
             (SELECT jsonb_agg(jsonb_build_array(agent_key, docs, lexemes) ORDER BY agent_key)
               FROM entry_stats WHERE org_id = $1) AS docs,
             (SELECT count(*)::int FROM ledger_pending) + (SELECT count(*)::int FROM stat_pending)
               + (SELECT count(*)::int FROM usage_pending) AS pending`,
          [orgId],
        );
      const kept = await stats();
      expect(kept?.[0]?.pending).toBe(0);
      await t.pg.query('SELECT cairn_rebuild_recall_index($1)', [orgId]);
      expect(await stats()).toEqual(kept);
    }
  });

  it.runIf(db !== 'pglite')(
    'lets a write through while another statement holds the org seal, and shows it once that one commits',
    async () => {
      const holder = new pg.Client({ connectionString: t.pg?.url });
      await holder.connect();
      try {
        await holder.query('BEGIN');
        await holder.query(SEAL, [orgId]);
        // the write does not wait for the seal: it answers, its event pending
        const written = await call('held', 'remember', { content: 'written while the seal was held' });
        const id = (written.entry as { id: string }).id;
        const pending = await t.pg?.query('SELECT op FROM ledger_pending WHERE org_id = $1 AND entry_id = $2', [
          orgId,
          id,
        ]);
        expect(pending).toEqual([{ op: 'remember' }]);
        expect(await t.pg?.query('SELECT seq FROM ledger WHERE org_id = $1 AND entry_id = $2', [orgId, id])).toEqual(
          [],
        );
        // a reader of the ledger waits for the holder and then sees the write
        const reading = call('held', 'space', { view: 'ledger', entry_id: id });
        await new Promise((r) => setTimeout(r, 300));
        await holder.query('COMMIT');
        const shown = await reading;
        expect(shown.events).toEqual([expect.objectContaining({ op: 'remember', agent: 'held', entry_id: id })]);
        expect(await verify()).toMatchObject({ ok: true, broken_at: null });

        // a write left pending in an org no call touches again is folded by the upkeep's sweep
        await holder.query('BEGIN');
        await holder.query(SEAL, [orgId]);
        const late = await call('held', 'observe', { content: 'the last write before a quiet night' });
        await holder.query('COMMIT');
        const lateId = (late.entry as { id: string }).id;
        const inLedger = () =>
          t.pg?.query('SELECT op FROM ledger WHERE org_id = $1 AND entry_id = $2', [orgId, lateId]) ?? [];
        expect(await inLedger()).toEqual([]);
        // the sweep; the service's own upkeep (a second after start, then every minute) may be at
        // this org's seal at the same moment, and then this one leaves it to that one
        for (let i = 0; i < 20 && (await inLedger()).length === 0; i++) {
          await t.pg?.queryAs('cairn_app', 'SELECT cairn_seal_pending() AS n');
          if ((await inLedger()).length === 0) await new Promise((r) => setTimeout(r, 50));
        }
        expect(await inLedger()).toEqual([{ op: 'observe' }]);
        expect(await t.pg?.query('SELECT count(*)::int AS n FROM ledger_pending')).toEqual([{ n: 0 }]);
        expect(await verify()).toMatchObject({ ok: true, broken_at: null });
      } finally {
        await holder.end();
      }
    },
  );
});
