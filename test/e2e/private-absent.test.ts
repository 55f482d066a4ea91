/**
 * Private means absent, as a property (fast-check): two agents of one org, alice and bob,
 * interleave writes (every tool that writes, every scope, two projects, a small vocabulary so
 * their words overlap) and forgets. The same sequence runs in two orgs: one with all of it, one
 * without bob's private entries. Every result alice gets — recall's hits and scores for each
 * word, a phrase and the empty query, in each read scope, with and without a project, and every
 * `space` view — is the same in both, once install-specific values (ids, times, ledger numbers
 * and hashes, the org's quota use) are set aside: another agent's private entries weigh nothing,
 * count nothing and crowd nothing out.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { headersFor, rawPost, toolCall } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

const WORDS = ['kafka', 'broker', 'latency', 'checkout', 'schema', 'retry'];
const PROJECTS = ['github.com/acme/shop', 'github.com/acme/ledger'];
type Agent = 'alice' | 'bob';
type Scope = 'org' | 'project' | 'agent';

type Action =
  | { kind: 'write'; agent: Agent; tool: string; scope: Scope; project: number; words: string[] }
  | { kind: 'forget'; agent: Agent; which: number };

const write = fc
  .record({
    agent: fc.constantFrom<Agent>('alice', 'bob', 'bob'),
    tool: fc.constantFrom('remember', 'observe', 'decide', 'note', 'plan'),
    scope: fc.constantFrom<Scope>('org', 'project', 'agent', 'agent'),
    project: fc.nat(1),
    words: fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 3 }),
  })
  .map((w): Action => ({ kind: 'write', ...w }));
const forget = fc
  .record({ agent: fc.constantFrom<Agent>('alice', 'bob'), which: fc.nat(40) })
  .map((f): Action => ({ kind: 'forget', ...f }));

/** Ids, in fields or in text: a write's becomes its label; any other (the org's first key) is each install's own. */
const UUIDS = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;
/** And handles (an id's last 8 hex digits, as the brief writes them), once the ids are labels. */
const HANDLES = /(?<![0-9a-f-])[0-9a-f]{8}(?![0-9a-f-])/g;
/** What an install assigns or what counts the whole org: set aside before comparing. */
const INSTALL = new Set(['id', 'created_at', 'updated_at', 'at', 'first_at', 'last_at', 'seq', 'hash', 'prev_hash']);

describe.each(DB_KINDS)('private means absent, as a property, on %s', (db) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer(db);
  });
  afterAll(() => t?.close());

  it("gives alice the same answers with and without bob's private entries", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(write, write, write, forget), { minLength: 6, maxLength: 24 }),
        async (actions) => {
          const orgs = { all: await t.createOrg('with bob private'), without: await t.createOrg('without') };
          // per org: id → the action that wrote it (ids differ between orgs; the label does not)
          const labels = { all: new Map<string, string>(), without: new Map<string, string>() };
          const ids: Record<'all' | 'without', { id: string; agent: Agent }[]> = { all: [], without: [] };
          const call = async (
            org: keyof typeof orgs,
            agent: Agent,
            name: string,
            args: Record<string, unknown>,
            project?: string,
          ) => {
            const res = await rawPost(
              t.mcpUrl,
              toolCall(name, args),
              headersFor({ key: orgs[org].key, agent, ...(project ? { project } : {}) }),
            );
            expect(res.status).toBe(200);
            const body = (await res.json()) as {
              result: { isError?: boolean; structuredContent: Record<string, unknown> };
            };
            return body.result;
          };

          for (const [i, a] of actions.entries()) {
            for (const org of ['all', 'without'] as const) {
              if (a.kind === 'write') {
                if (org === 'without' && a.agent === 'bob' && a.scope === 'agent') continue;
                const text = `${a.words.join(' ')} w${i}`;
                const project = PROJECTS[a.project];
                const args: Record<string, unknown> =
                  a.tool === 'plan'
                    ? { title: text, steps: [{ text: a.words[0] }], scope: a.scope }
                    : { content: text, scope: a.scope, ...(a.tool === 'decide' ? { rationale: a.words[0] } : {}) };
                const r = await call(org, a.agent, a.tool, args, project);
                expect(r.isError, JSON.stringify(r)).toBeFalsy();
                const id = (r.structuredContent.entry as { id: string }).id;
                labels[org].set(id, `w${i}`);
                ids[org].push({ id, agent: a.agent });
              } else {
                // forget the which-th entry the agent wrote that both orgs hold (bob's private ones
                // are forgotten in the org that has them, and nothing is done in the other)
                const mine = ids.all.filter((x) => x.agent === a.agent);
                const target = mine[a.which % Math.max(mine.length, 1)];
                if (!target) continue;
                const label = labels.all.get(target.id);
                const here = [...labels[org]].find(([, l]) => l === label)?.[0];
                if (!here) continue;
                const r = await call(org, a.agent, 'forget', { ids: [here] });
                expect(r.isError, JSON.stringify(r)).toBeFalsy();
              }
            }
          }

          // alice's view, normalised: ids become the label of the write that made them
          const view = async (
            org: keyof typeof orgs,
            name: string,
            args: Record<string, unknown>,
            project?: string,
          ) => {
            const r = await call(org, 'alice', name, args, project);
            const handles = new Map([...labels[org]].map(([id, label]) => [id.slice(-8), label]));
            const norm = (v: unknown, key?: string): unknown => {
              if (typeof v === 'string') {
                if (key && INSTALL.has(key)) return '·';
                return v
                  .replace(UUIDS, (id) => labels[org].get(id) ?? '·')
                  .replace(HANDLES, (h) => handles.get(h) ?? '·');
              }
              if (Array.isArray(v)) return v.map((x) => norm(x));
              if (v && typeof v === 'object') {
                return Object.fromEntries(
                  Object.entries(v)
                    .filter(([k]) => !INSTALL.has(k) && k !== 'quota' && k !== 'stored_bytes' && k !== 'org')
                    .map(([k, x]) => [k, norm(x, k)]),
                );
              }
              return v;
            };
            return { isError: r.isError ?? false, result: norm(r.structuredContent) };
          };
          const asks: [string, Record<string, unknown>, string | undefined][] = [];
          for (const q of [...WORDS, 'kafka broker latency', 'check', '']) {
            asks.push(['recall', { query: q, limit: 50 }, undefined]);
            asks.push(['recall', { query: q, limit: 50, scope: 'org', include_superseded: true }, PROJECTS[0]]);
            asks.push(['recall', { query: q, limit: 5 }, PROJECTS[1]]);
          }
          for (const v of ['overview', 'projects', 'agents', 'ledger', 'brief']) {
            asks.push(['space', { view: v, limit: 500 }, undefined]);
            asks.push(['space', { view: v, limit: 500 }, PROJECTS[0]]);
          }
          for (const [name, args, project] of asks) {
            const [a, b] = [await view('all', name, args, project), await view('without', name, args, project)];
            expect(a, `${name} ${JSON.stringify(args)} in ${project ?? 'no project'}`).toEqual(b);
          }
        },
      ),
      { numRuns: db === 'pglite' ? 12 : 8 },
    );
  });

  it("keeps bob's private notes from crowding alice's shared entry out of her recall", async () => {
    const { key } = await t.createOrg('crowded');
    const as = (agent: Agent, name: string, args: Record<string, unknown>) =>
      rawPost(t.mcpUrl, toolCall(name, args), headersFor({ key, agent })).then(
        async (r) => ((await r.json()) as { result: { structuredContent: Record<string, unknown> } }).result,
      );
    const shared = await as('alice', 'remember', { content: 'the quokkaflux cache is warmed at deploy', scope: 'org' });
    // newer, and as many as recall reads candidates: before, they took every place
    for (let i = 0; i < 40; i++) await as('bob', 'note', { content: `quokkaflux scratch ${i}`, scope: 'agent' });
    const found = await as('alice', 'recall', { query: 'quokkaflux', limit: 5 });
    expect((found.structuredContent.hits as { id: string }[]).map((h) => h.id)).toEqual([
      (shared.structuredContent.entry as { id: string }).id,
    ]);
    // bob still finds his own, newest first, and alice's
    const his = await as('bob', 'recall', { query: 'quokkaflux', limit: 50 });
    expect(his.structuredContent.hits).toHaveLength(41);
  });
});
