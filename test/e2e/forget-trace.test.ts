/**
 * Forgetting can be traced by the agent (issue 39.4): after an entry is forgotten, `space` view
 * history of it and a second `forget` say by whom, when and why, from the ledger's event; the
 * ledger's text shows the reason. Another agent's private entry stays unknown: forgotten or never
 * written, the answer is the same.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

describe.each(TARGETS)('forgetting traced on %s', (db) => {
  let t: TestServer;
  let a: McpSession;
  let b: McpSession;

  beforeAll(async () => {
    t = await startTestServer(db);
    const org = await t.createOrg('trace');
    a = await connect('v2', t.mcpUrl, { key: org.key, agent: 'agent-a', project: '/srv/shop' });
    b = await connect('v2', t.mcpUrl, { key: org.key, agent: 'agent-b', project: '/srv/shop' });
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await t?.close();
  });

  it('says who forgot an entry, when and why, in history, a second forget and the ledger', async () => {
    const id = entryId(await a.call('remember', { content: 'Deploys go through the blue-green script' }));
    const first = await b.call('forget', { id, reason: 'the script was\nreplaced by Argo' });
    expect(first.structured).toMatchObject({ forgotten: [id], not_found: [] });
    const at = /^\d{4}-\d\d-\d\dT\d\d:\d\d/;

    const again = await a.call('forget', { id });
    expect(again.isError).toBeFalsy();
    expect(again.structured).toMatchObject({
      forgotten: [],
      not_found: [id],
      forgotten_before: [{ id, by: 'agent-b', actor_kind: 'agent', reason: 'the script was\nreplaced by Argo' }],
    });
    expect(again.text).toMatch(
      new RegExp(
        `^Forgot 0 of 1\\. ${id} was already forgotten by agent-b at \\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\dZ: the script was replaced by Argo\\.$`,
      ),
    );

    const history = await a.call('space', { view: 'history', entry_id: id });
    expect(history.isError).toBe(true);
    expect(history.text).toMatch(
      new RegExp(
        `entry_id: entry ${id} was forgotten by agent-b at \\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ: the script was\\nreplaced by Argo; its content is gone`,
      ),
    );
    const ledger = await a.call('space', { view: 'ledger', entry_id: id });
    expect(ledger.text).toMatch(new RegExp(`agent-b forget ${id}: the script was replaced by Argo$`, 'm'));
    expect((ledger.structured.events as { at: string }[]).every((e) => at.test(e.at))).toBe(true);
  });

  it("keeps another agent's forgotten private entry unknown, and says when no reason was given", async () => {
    const note = entryId(await a.call('note', { content: 'my scratch about the deploy' }));
    expect((await a.call('forget', { id: note })).structured).toMatchObject({ forgotten: [note] });
    // the author sees its own forget, with no reason
    const own = await a.call('space', { view: 'history', entry_id: note });
    expect(own.text).toMatch(/was forgotten by agent-a at \S+ \(no reason given\); its content is gone/);
    // another agent: the same answer as for an id never written
    const never = '01a21b33-0000-7000-8000-000000000000';
    for (const id of [note, never]) {
      const seen = await b.call('forget', { id });
      expect(seen.structured).toEqual({ forgotten: [], not_found: [id], forgotten_before: [] });
      expect(seen.text).toBe(
        `Forgot 0 of 1. Not found, or another agent's private entry: ${id}. Nothing of those was changed.`,
      );
      expect((await b.call('space', { view: 'history', entry_id: id })).text).toMatch(
        new RegExp(`entry_id: entry ${id} not found`),
      );
    }
  });
});
