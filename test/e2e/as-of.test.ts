/**
 * Memory across time (docs/design.md): `recall` with `as_of` answers with the memory as it stood
 * then — entries written since do not exist yet, a replacement written since does not count, a
 * plan shows the version current then — and forgetting is not undone by time travel.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const pause = () => new Promise((r) => setTimeout(r, 60));

describe.each(TARGETS)('recall as of a time on %s', (db) => {
  let t: TestServer;
  let s: McpSession;

  beforeAll(async () => {
    t = await startTestServer(db);
    const { key } = await t.createOrg('historians');
    s = await connect('v2', t.mcpUrl, { key, agent: 'archivist' });
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  it('shows what was believed then: the decision before its replacement, the plan as it was, nothing written since, nothing forgotten', async () => {
    const before = entryId(
      await s.call('decide', { content: 'Releases ship from the zeppelin branch', rationale: 'one branch to watch' }),
    );
    const plan = entryId(
      await s.call('plan', { title: 'zeppelin release one', steps: [{ text: 'tag the zeppelin build' }] }),
    );
    const doomed = entryId(await s.call('remember', { content: 'The zeppelin hangar key is in the blue box' }));
    await pause();
    const then = new Date().toISOString();
    await pause();
    const after = entryId(
      await s.call('decide', {
        content: 'Releases ship from main, not the zeppelin branch',
        rationale: 'trunk-based',
        supersedes: before,
      }),
    );
    await s.call('plan', { id: plan, title: 'zeppelin release two', steps: [{ text: 'tag the main build' }] });
    await s.call('remember', { content: 'The zeppelin dashboards moved to Grafana' });
    await s.call('forget', { id: doomed, reason: 'wrong' });

    const past = await s.call('recall', { query: 'zeppelin', limit: 20, as_of: then });
    expect(past.text).toMatch(new RegExp(`^As of ${then}: `));
    const hits = past.structured.hits as {
      id: string;
      superseded_by: string | null;
      title: string | null;
      version: number;
    }[];
    expect(hits.map((h) => h.id).sort()).toEqual([before, plan].sort());
    expect(hits.find((h) => h.id === before)?.superseded_by).toBeNull();
    expect(hits.find((h) => h.id === plan)).toMatchObject({ title: 'zeppelin release one', version: 1 });

    // now: the replacement, the plan's second version, the new memory; the forgotten one never again
    const now = (await s.call('recall', { query: 'zeppelin', limit: 20 })).structured.hits as {
      id: string;
      title: string | null;
    }[];
    expect(now.map((h) => h.id)).toContain(after);
    expect(now.map((h) => h.id)).not.toContain(before);
    expect(now.find((h) => h.id === plan)?.title).toBe('zeppelin release two');
    expect(now.map((h) => h.id)).not.toContain(doomed);
    // an empty query lists what existed then, newest first
    const listed = (await s.call('recall', { query: '', as_of: then, limit: 50 })).structured.hits as { id: string }[];
    expect(listed.map((h) => h.id)).toEqual([plan, before]);
  });
});
