/**
 * Agent-bound keys (contract §5): a key bound to an agent acts as that agent only. Without
 * X-Svc-Agent it is that agent; naming another is refused with 403 and changes nothing; its
 * ledger events are verified, a header-declared agent's are not, and the chain verifies with both.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminActions } from '../../src/operator/admin';
import { connect, entryId, type McpSession, rawPost, toolCall } from '../helpers/clients';
import { ADMIN_TOKEN, startTestServer, TARGETS, type TestServer } from '../helpers/server';

interface Caller {
  agent: string;
  is_default: boolean;
  verified: boolean;
}

describe.each(TARGETS)('agent-bound keys on %s', (db) => {
  let t: TestServer;
  let orgId: string;
  let orgKey: string;
  let aliceKey: string;
  let alice: McpSession;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ orgId, key: orgKey } = await t.createOrg('acme'));
    ({ key: aliceKey } = await t.createKey(orgId, 'alice laptop', 'alice'));
    alice = await connect('v2', t.mcpUrl, { key: aliceKey }); // no X-Svc-Agent
  });
  afterAll(async () => {
    await alice?.close();
    await t?.close();
  });

  it("says on every write when an unbound key named no agent: the write is the shared default agent's", async () => {
    const anonymous = await connect('v2', t.mcpUrl, { key: orgKey }); // no X-Svc-Agent
    try {
      const note =
        'Note: written as the shared agent "default", since the call named no agent; send the X-Svc-Agent header';
      const wrote = [
        await anonymous.call('remember', { content: 'the build cache lives in /var/cache/ci' }),
        await anonymous.call('plan', { title: 'rotate the CI runners', steps: [{ text: 'drain' }] }),
        await anonymous.call('artifact_put', { name: 'runners.txt', content: 'r1 r2' }),
      ];
      for (const r of wrote) {
        expect(r.text).toContain(note);
        // Claude Code and Codex show the model the structured content, not the text
        expect(r.structured.notice).toMatch(/^written as the shared agent "default", since the call named no agent/);
      }
      // a bound key without a header is its agent, and a named agent is itself: no note
      const bound = await alice.call('remember', { content: 'alice: the runners drain at noon' });
      expect(bound.text).not.toContain('shared agent');
      expect(bound.structured).not.toHaveProperty('notice');
    } finally {
      await anonymous.close();
    }
  });

  it('acts as its agent without a header, and says so', async () => {
    const note = await alice.call('note', { content: 'alice private: the staging password rotates on Fridays' });
    expect(note.isError, note.text).toBe(false);
    expect((note.structured.entry as { agent: string }).agent).toBe('alice');
    const overview = await alice.call('space', {});
    expect(overview.structured.caller as Caller).toEqual({ agent: 'alice', is_default: false, verified: true });
    expect(overview.text).toContain('You are agent "alice" (your credential says so).');
    // the same agent named in the header is the same caller
    const same = await connect('v2-modern', t.mcpUrl, { key: aliceKey, agent: 'alice' });
    const mine = await same.call('recall', { query: 'staging password' });
    expect(mine.text).toContain('staging password rotates');
    await same.close();
  });

  it('refuses another agent in X-Svc-Agent with 403, for tool calls and the rest, storing nothing', async () => {
    const before = (await alice.call('space', { view: 'ledger' })).structured.events as unknown[];
    const asBob = { 'X-Svc-Key': aliceKey, 'X-Svc-Agent': 'bob' };
    const write = await rawPost(t.mcpUrl, toolCall('remember', { content: 'written in bob name' }), asBob);
    expect(write.status).toBe(403);
    const body = (await write.json()) as { error: { message: string } };
    expect(body.error.message).toContain('bound to agent "alice" and cannot act as "bob"');
    expect(body.error.message).toContain('send X-Svc-Agent: alice or leave it out');
    const list = await rawPost(t.mcpUrl, { jsonrpc: '2.0', id: 2, method: 'tools/list' }, asBob);
    expect(list.status).toBe(403);
    const after = (await alice.call('space', { view: 'ledger' })).structured.events as unknown[];
    expect(after).toHaveLength(before.length);
  });

  it('keeps the header rule for an unbound key, which cannot read the bound agent private notes', async () => {
    const bob = await connect('v1', t.mcpUrl, { key: orgKey, agent: 'bob' });
    const r = await bob.call('recall', { query: 'staging password' });
    expect(r.text).not.toContain('staging password rotates');
    const overview = await bob.call('space', {});
    expect(overview.structured.caller as Caller).toEqual({ agent: 'bob', is_default: false, verified: false });
    await bob.close();
  });

  it('records which events were verified, and the chain still verifies', async () => {
    const bob = await connect('v2', t.mcpUrl, { key: orgKey, agent: 'bob' });
    const declared = entryId(await bob.call('remember', { content: 'bob declared himself by header' }));
    const bound = entryId(await alice.call('remember', { content: 'alice wrote this with her bound key' }));
    const ledger = await alice.call('space', { view: 'ledger', limit: 10 });
    expect(ledger.text).toContain(`alice (verified) remember ${bound}`);
    expect(ledger.text).toContain(`bob remember ${declared}`);
    const events = ledger.structured.events as {
      entry_id: string | null;
      agent: string;
      verified: boolean;
    }[];
    expect(events.find((e) => e.entry_id === declared)).toMatchObject({ agent: 'bob', verified: false });
    expect(events.find((e) => e.entry_id === bound)).toMatchObject({ agent: 'alice', verified: true });
    expect(await adminActions(t.store, 'test').verifyLedger(orgId)).toEqual({
      ok: true,
      events: expect.any(Number),
      broken_at: null,
    });
    await bob.close();
  });

  it('is made and listed through /admin, and a bad agent name is refused with the field named', async () => {
    if (db === 'workers') return; // /admin is the Node server's and the Worker's alike; one suffices
    const post = (body: unknown) =>
      fetch(`${t.url}/admin/orgs/${orgId}/keys`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const made = await post({ name: 'reviewer bot', agent: ' reviewer ' });
    expect(made.status).toBe(201);
    expect(((await made.json()) as { key: { agent: string } }).key.agent).toBe('reviewer');
    const bad = await post({ name: 'bad', agent: 'rev\u0007iewer' });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain(
      'agent: must not contain control or invisible characters; found U+0007 (a control character) at character 4',
    );
    // the admin route (and so `cairn key create --agent`) refuses a soft hyphen the same way
    const hyphen = await post({ name: 'bad', agent: 'rev\u00adiewer' });
    expect(hyphen.status).toBe(400);
    expect(await hyphen.text()).toContain('found U+00AD (soft hyphen, an invisible format character) at character 4');
    const listed = await fetch(`${t.url}/admin/orgs/${orgId}/keys`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const keys = ((await listed.json()) as { keys: { name: string; agent: string | null }[] }).keys;
    expect(keys.find((k) => k.name === 'reviewer bot')?.agent).toBe('reviewer');
    expect(keys.find((k) => k.name === 'first key')?.agent).toBeNull();
  });
});
