/**
 * Plans shared by agents (docs/design.md): updates that cannot clobber one another
 * (`expected_version`) and claims on steps that exactly one agent wins, which expire by themselves.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

interface Result {
  isError?: boolean;
  content: { text: string }[];
  structuredContent: { entry: { id: string; version: number; steps: Record<string, unknown>[] } };
}

describe.each(TARGETS)('plans shared by agents on %s', (db) => {
  let t: TestServer;
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key, orgId } = await t.createOrg('crew'));
  });
  afterAll(() => t?.close());

  const plan = async (agent: string, args: Record<string, unknown>) => {
    const res = await rawPost(t.mcpUrl, toolCall('plan', args), headersFor({ key, agent }));
    expect(res.status).toBe(200);
    return ((await res.json()) as { result: Result }).result;
  };
  const text = (r: Result) => r.content[0]?.text ?? '';
  const newPlan = async () =>
    (
      await plan('lead', {
        title: 'ship the release',
        steps: [{ text: 'cut the branch' }, { text: 'run the migrations' }, { text: 'announce' }],
        scope: 'org',
      })
    ).structuredContent.entry;

  it('lets exactly one of 20 updates at one version through; the others are told who changed it and to what version', async () => {
    const p = await newPlan();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        plan(`agent-${i}`, { id: p.id, expected_version: 1, title: `ship the release, take ${i}` }),
      ),
    );
    const won = answers.filter((a) => !a.isError);
    expect(won).toHaveLength(1);
    const winner = (won[0] as Result).structuredContent.entry;
    expect(winner.version).toBe(2);
    const by = /take (\d+)/.exec(text(won[0] as Result))?.[1];
    for (const lost of answers.filter((a) => a.isError)) {
      expect(text(lost)).toMatch(
        new RegExp(
          `expected_version: plan ${p.id} is at version 2, not 1: agent-${by} made it at \\S+ \\(title\\); .*retry with expected_version 2`,
        ),
      );
    }
    // the ledger holds the accepted update once
    const ledger = await fetch(`${t.url}/admin/orgs/${orgId}/ledger/verify`, {
      headers: { authorization: 'Bearer test-admin-token-0123456789' },
    });
    expect(((await ledger.json()) as { ok: boolean }).ok).toBe(true);
    const events = await rawPost(
      t.mcpUrl,
      toolCall('space', { view: 'ledger', entry_id: p.id }),
      headersFor({ key, agent: 'lead' }),
    );
    const ops = ((await events.json()) as { result: { structuredContent: { events: { op: string }[] } } }).result
      .structuredContent.events;
    expect(ops.map((e) => e.op).sort()).toEqual(['plan.create', 'plan.update']);
    // with the version it was told, the next update goes through
    expect((await plan('agent-late', { id: p.id, expected_version: 2, status: 'active' })).isError).toBeFalsy();
  });

  it('gives a step to exactly one of 50 agents claiming it; the claim shows, expires by itself, and ends when the step is done', async () => {
    const p = await newPlan();
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => plan(`worker-${i}`, { id: p.id, claim_step: 1, claim_seconds: 4 })),
    );
    const won = answers.filter((a) => !a.isError);
    expect(won).toHaveLength(1);
    const step = (won[0] as Result).structuredContent.entry.steps[1] as { claimed_by: string; status: string };
    expect(step.status).toBe('doing');
    const holder = step.claimed_by;
    expect(text(won[0] as Result)).toContain(`#1 (doing) run the migrations [claimed by ${holder} until`);
    for (const lost of answers.filter((a) => a.isError)) {
      expect(text(lost)).toMatch(
        new RegExp(
          `claim_step: step #1 \\(run the migrations\\) is claimed by ${holder} until \\S+Z; pick another step`,
        ),
      );
    }
    // only the holder may release it early; the brief shows who holds what
    expect(text(await plan('someone', { id: p.id, release_step: 1 }))).toContain(`only ${holder} may release it`);
    const brief = await rawPost(t.mcpUrl, toolCall('space', { view: 'brief' }), headersFor({ key, agent: 'lead' }));
    expect(((await brief.json()) as { result: Result }).result.content[0]?.text).toContain(
      `claimed by ${holder} until`,
    );
    // after it expires, another agent can claim it
    await new Promise((r) => setTimeout(r, 4100));
    const next = await plan('worker-late', { id: p.id, claim_step: 1 });
    expect(next.isError).toBeFalsy();
    expect(next.structuredContent.entry.steps[1]).toMatchObject({ claimed_by: 'worker-late' });
    // done releases it
    const done = await plan('worker-late', {
      id: p.id,
      steps: [
        { text: 'cut the branch', status: 'done' },
        { text: 'run the migrations', status: 'done' },
        { text: 'announce', status: 'todo' },
      ],
    });
    expect(done.structuredContent.entry.steps[1]).toEqual({ text: 'run the migrations', status: 'done' });
    expect(text(await plan('worker-late', { id: p.id, claim_step: 1 }))).toContain('is done; claim a step still to do');
    expect(text(await plan('worker-late', { id: p.id, claim_step: 7 }))).toContain('the plan has 3 steps (#0 to #2)');
  });

  it('adds up: done only with no step open, release only by the holder and back to todo, steps named #i', async () => {
    const p = await newPlan();
    // done with steps open: refused, naming each open step and how to close them; nothing changed
    const early = await plan('lead', { id: p.id, status: 'done' });
    expect(early.isError).toBe(true);
    expect(text(early)).toBe(
      `status: plan ${p.id} cannot be done while steps #0 (todo), #1 (todo), #2 (todo) are open; send steps with each of them done or skipped (in the same update or before), or set status abandoned`,
    );
    // releasing a step nobody holds, or another's expired claim, is refused
    const none = await plan('lead', { id: p.id, release_step: 0 });
    expect(text(none)).toBe(
      'release_step: step #0 (cut the branch) is not claimed by you (nobody holds it); only a step you claimed can be released',
    );
    await plan('ann', { id: p.id, claim_step: 2, claim_seconds: 1 });
    await new Promise((r) => setTimeout(r, 1100));
    expect(text(await plan('bea', { id: p.id, release_step: 2 }))).toMatch(
      /^release_step: step #2 \(announce\) is not claimed by you \(the claim of ann ran out at \S+Z\)/,
    );
    // the holder releases: the step is to do again, and nobody holds it
    const claimed = await plan('ann', { id: p.id, claim_step: 1 });
    expect(claimed.structuredContent.entry.steps[1]).toMatchObject({ status: 'doing', claimed_by: 'ann' });
    const released = await plan('ann', { id: p.id, release_step: 1 });
    expect(released.isError).toBeFalsy();
    expect(released.structuredContent.entry.steps[1]).toEqual({ text: 'run the migrations', status: 'todo' });
    expect(text(released)).toContain('Next: #0 cut the branch; #1 run the migrations; #2 (doing) announce.');
    // all done or skipped in the same update: done
    const done = await plan('lead', {
      id: p.id,
      status: 'done',
      steps: [
        { text: 'cut the branch', status: 'done' },
        { text: 'run the migrations', status: 'done' },
        { text: 'announce', status: 'skipped' },
      ],
    });
    expect(done.isError).toBeFalsy();
    expect(done.structuredContent.entry).toMatchObject({ status: 'done' });
  });
});
