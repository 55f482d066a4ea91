/** The ledger answers "which agent decided X", stays contiguous, and its verifier catches tampering. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/crypto';
import { canonicalEvent } from '../../src/domain/ledger';
import type { LedgerEvent } from '../../src/domain/schemas';
import { connect } from '../helpers/clients';
import { ADMIN_TOKEN, startTestServer, TARGETS, type TestServer } from '../helpers/server';

describe.each(TARGETS)('ledger on %s', (db) => {
  let t: TestServer;
  let orgId: string;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ orgId, key } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  const verify = async () => {
    const res = await fetch(`${t.url}/admin/orgs/${orgId}/ledger/verify`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.status).toBe(200);
    return res.json();
  };

  it('answers which agent decided something, and verifies', async () => {
    const alice = await connect('v2', t.mcpUrl, { key, agent: 'alice' });
    const bob = await connect('v1', t.mcpUrl, { key, agent: 'bob' });
    const d = await bob.call('decide', {
      content: 'Adopt trunk-based development',
      rationale: 'fewer merge conflicts',
    });
    const id = (d.structured.entry as { id: string }).id;
    await alice.call('remember', { content: 'alice was here' });
    // concurrent writers from two agents keep the chain contiguous
    await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? alice : bob).call('observe', { content: `event ${i}` })),
    );

    const found = await alice.call('recall', { query: 'trunk-based development', kinds: ['decision'] });
    const hit = (found.structured.hits as { id: string; agent: string }[])[0];
    expect(hit).toMatchObject({ id, agent: 'bob' });
    const events = await alice.call('space', { view: 'ledger', entry_id: id });
    expect(events.structured.events).toEqual([expect.objectContaining({ op: 'decide', agent: 'bob', entry_id: id })]);
    expect(events.text).toMatch(/bob decide/);

    const all = await alice.call('space', { view: 'ledger', limit: 500 });
    const seqs = (all.structured.events as { seq: number }[]).map((e) => e.seq);
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => seqs.length - i));
    // who acted: the org's first key was made by the operator (the test harness, as `test`), every
    // write by an agent
    const kinds = (all.structured.events as LedgerEvent[]).map((e) => `${e.agent}/${e.actor_kind}`);
    expect(kinds.at(-1)).toBe('test/operator');
    expect(new Set(kinds.slice(0, -1))).toEqual(new Set(['alice/agent', 'bob/agent']));
    expect(all.text).toMatch(/^#1 \S+ \S+ test \(operator\) key\.create /m);
    const agents = await alice.call('space', { view: 'agents' });
    expect((agents.structured.agents as { agent: string }[]).map((a) => a.agent).sort()).toEqual(['alice', 'bob']);
    expect(await verify()).toEqual({ ok: true, events: seqs.length, broken_at: null });
    await alice.close();
    await bob.close();
  });

  it('shows an agent named like a verified agent, a member or an operator as a name, quoted', async () => {
    const posers = ['alice (verified)', 'boss@acme.test (member)', 'cli (operator)'];
    for (const agent of posers) {
      const s = await connect('v2', t.mcpUrl, { key, agent });
      try {
        expect((await s.call('remember', { content: `poser ${agent}` })).isError).toBe(false);
      } finally {
        await s.close();
      }
    }
    const reader = await connect('v2', t.mcpUrl, { key, agent: 'reader' });
    try {
      const ledger = (await reader.call('space', { view: 'ledger', limit: 3 })).text;
      for (const agent of posers) {
        expect(ledger).toContain(` ${JSON.stringify(agent)} remember `);
        expect(ledger).not.toContain(` ${agent} remember `);
      }
      const agents = (await reader.call('space', { view: 'agents' })).text;
      expect(agents).toContain('- "boss@acme.test (member)": 1 event');
      const hits = (await reader.call('recall', { query: 'poser' })).text;
      expect(hits).toContain('("alice (verified)", ');
    } finally {
      await reader.close();
    }
  });

  it.runIf(db !== 'pglite')('reports the first broken link when an event is altered', async () => {
    await t.pg?.query(`UPDATE ledger SET agent = 'mallory' WHERE org_id = $1 AND seq = 3`, [orgId]);
    expect(await verify()).toMatchObject({ ok: false, broken_at: 3 });
  });

  it.runIf(db !== 'pglite')('gives the service role no way to change or delete ledger events', async () => {
    await expect(t.pg?.queryAs('cairn_app', `UPDATE ledger SET reason = 'x'`)).rejects.toThrow(/permission denied/);
    await expect(t.pg?.queryAs('cairn_app', 'DELETE FROM ledger')).rejects.toThrow(/permission denied/);
  });

  it('gives readers no way to confirm a guess of a hidden private note from the hashes they see', async () => {
    const bob = await connect('v2', t.mcpUrl, { key, agent: 'bob' });
    const alice = await connect('v2', t.mcpUrl, { key, agent: 'alice' });
    try {
      const text = 'bob thinks the launch slips to March';
      await bob.call('note', { content: text });
      await bob.call('remember', { content: 'shared after the note' });
      // what alice sees: the event after the hidden one, with its prev_hash
      const seen = (await alice.call('space', { view: 'ledger', limit: 5 })).structured.events as LedgerEvent[];
      const after = seen[0] as LedgerEvent;
      expect(after.op).toBe('remember');
      // alice guesses everything of the hidden event right (as the operator's page shows it)
      const page = await t.store.admin.ledgerPage(orgId, after.seq - 2, 1);
      const hidden = page[0] as LedgerEvent & { salt?: string | null };
      expect(hidden).toMatchObject({ seq: after.seq - 1, op: 'note', agent: 'bob' });
      expect(hidden.content_sha256).toBe(await sha256Hex(text));
      expect(seen.some((e) => e.seq === hidden.seq)).toBe(false);
      expect(JSON.stringify(seen)).not.toContain(hidden.salt as string);
      // without the salt, the right guess does not give the hash her next event chains from
      const { salt, ...guess } = hidden;
      expect(salt).toMatch(/^[0-9a-f]{32}$/);
      expect(await sha256Hex(hidden.prev_hash + canonicalEvent(orgId, guess))).not.toBe(after.prev_hash);
      expect(await sha256Hex(hidden.prev_hash + canonicalEvent(orgId, hidden))).toBe(after.prev_hash);
    } finally {
      await bob.close();
      await alice.close();
    }
  });
});
