/**
 * A brief's candidates are sent once (sql/tools/cairn_brief.sql, src/domain/brief.ts): the memory
 * service tells the statement which candidates it holds, and the statement sends those unchanged
 * as their section and id alone. Checked on what the store answers, through the memory service
 * as the tools call it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptDerivations } from '../../src/domain/brief';
import { sha256Hex } from '../../src/domain/crypto';
import { createMemoryService } from '../../src/domain/memory';
import { decideInput, planInput, spaceInput } from '../../src/domain/operations';
import type { CallIdentity, Store } from '../../src/domain/ports';
import { adminActions } from '../../src/operator/admin';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { openStore } from '../../src/storage/pg/client';

describe('a brief sends what it already holds by id (pglite)', () => {
  let store: Store;
  let service: ReturnType<typeof createMemoryService>;
  let who: (agent: string) => CallIdentity;
  /** The candidates of each brief the store answered, as rows. */
  const answered: unknown[][][] = [];

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://', maintenanceSeconds: 0 });
    const { key } = await adminActions(store, 'test').createOrg('held');
    const keyHash = await sha256Hex(key.secret);
    who = (agent) => ({ keyHash, agent, project: '/srv/held' });
    const recording: Store = {
      ...store,
      call: async (op, caller, args) => {
        const r = await store.call(op, caller, args);
        const candidates = (r as { candidates?: unknown[][] }).candidates;
        if (candidates) answered.push(candidates);
        return r;
      },
    };
    service = createMemoryService({ store: recording, blobs: createFsBlobStore(`/tmp/cairn-held-${process.pid}`) });
  });
  afterAll(() => store?.close());

  const brief = async (agent = 'alice') =>
    (await service.space(who(agent), spaceInput.parse({ view: 'brief' }))).brief?.text ?? '';
  const last = () => answered[answered.length - 1] ?? [];

  it('sends the unchanged candidates of the same read by id, a changed one whole, and briefs the same', async () => {
    keptDerivations.clear();
    const steps = [
      { text: 'Build it', status: 'doing' as const },
      { text: 'Test it', status: 'todo' as const },
    ];
    const plan = await service.plan(who('alice'), planInput.parse({ title: 'Ship the cart', steps }));
    await service.write('decide', who('alice'), decideInput.parse({ content: 'Use Redis', rationale: 'speed' }));
    const first = await brief();
    expect(last().map((r) => r.length)).toEqual([17, 17]);
    expect(await brief()).toBe(first);
    expect(last().map((r) => r.length)).toEqual([2, 2]);
    // claiming a step already under way changes the plan's row, not its content: it comes whole,
    // and the brief says so
    await service.plan(who('bob'), planInput.parse({ id: plan.entry.id, claim_step: 0 }));
    const claimed = await brief();
    expect(last().map((r) => [r[1], r.length])).toEqual([
      [plan.entry.id, 17],
      [expect.any(String), 2],
    ]);
    expect(claimed).toContain('#0 (doing) Build it [claimed by bob until');
    expect(claimed).not.toBe(first);
    // and what was received whole is held at its new version
    expect(await brief()).toBe(claimed);
    expect(last().map((r) => r.length)).toEqual([2, 2]);
  });

  it("does not send one agent's candidates in another agent's statement", async () => {
    await brief('alice');
    await brief('carol');
    expect(last().every((r) => r.length === 17)).toBe(true);
  });
});
