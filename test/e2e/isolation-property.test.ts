/**
 * Tenant isolation as a property (fast-check): random sequences of tool calls by agents of two
 * orgs, interleaved — writes, reads, and attempts on the other org's ids — never show one org
 * anything of the other: no content, id, agent or project name in any result or error, and counts
 * that match what the org itself wrote. At the SQL level: the service role with no org set reads
 * no row of any table holding org data.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost, toolCall } from '../helpers/clients';
import { ADMIN_TOKEN, DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

type Org = 'a' | 'b';
interface Action {
  org: Org;
  agent: 0 | 1;
  tool: string;
  /** Builds the arguments from what is known so far (ids of either org). */
  args: (known: Known) => Record<string, unknown>;
}
interface Known {
  ids: Record<Org, string[]>;
  names: Record<Org, string[]>;
  n: number;
}

const WORDS: Record<Org, string[]> = {
  a: ['amberwood', 'alpinist', 'anchorage', 'aquifer'],
  b: ['bluebell', 'boathouse', 'brimstone', 'buttress'],
};
const PROJECT: Record<Org, string> = { a: 'github.com/alpha-co/ark', b: 'github.com/bravo-co/barge' };
const AGENTS: Record<Org, [string, string]> = { a: ['ant-one', 'ant-two'], b: ['bee-one', 'bee-two'] };
const other = (o: Org): Org => (o === 'a' ? 'b' : 'a');

const word = (o: Org) => fc.constantFrom(...WORDS[o]);
const pick = (list: string[], i: number) =>
  list[i % Math.max(1, list.length)] ?? '00000000-0000-7000-8000-000000000000';

/** One action of org `o`: a write of its own words, a read, or a reach for the other org's ids. */
function action(o: Org): fc.Arbitrary<Action> {
  const agent = fc.constantFrom<0 | 1>(0, 1);
  const scope = fc.constantFrom('org', 'project', 'agent');
  const i = fc.nat(50);
  const write = fc.tuple(fc.constantFrom('remember', 'observe', 'decide', 'note'), word(o), scope, agent).map(
    ([tool, w, s, ag]): Action => ({
      org: o,
      agent: ag,
      tool,
      args: (k) => ({ content: `${w} ${o}-marker-${k.n}`, scope: s, ...(tool === 'decide' ? { rationale: w } : {}) }),
    }),
  );
  const plan = fc.tuple(word(o), agent).map(
    ([w, ag]): Action => ({
      org: o,
      agent: ag,
      tool: 'plan',
      args: (k) => ({ title: `${w} plan ${o}-marker-${k.n}`, steps: [{ text: w, status: 'todo' }] }),
    }),
  );
  const artifact = fc.tuple(word(o), scope, agent).map(
    ([w, s, ag]): Action => ({
      org: o,
      agent: ag,
      tool: 'artifact_put',
      args: (k) => ({ name: `${w}-${o}-marker-${k.n}.txt`, content: `${w} bytes`, scope: s }),
    }),
  );
  const recall = fc.tuple(fc.constantFrom(...WORDS.a, ...WORDS.b, ''), scope, agent).map(
    ([q, s, ag]): Action => ({
      org: o,
      agent: ag,
      tool: 'recall',
      args: () => ({ query: q, scope: s, limit: 100, include_superseded: true }),
    }),
  );
  const space = fc
    .tuple(fc.constantFrom('overview', 'projects', 'agents', 'ledger'), agent)
    .map(([view, ag]): Action => ({ org: o, agent: ag, tool: 'space', args: () => ({ view, limit: 500 }) }));
  // reaching for the other org's things by id or name
  const reach = fc
    .tuple(fc.constantFrom('forget', 'artifact_get', 'plan', 'remember', 'space', 'get-by-name'), i, agent)
    .map(([kind, n, ag]): Action => {
      const theirs = (k: Known) => pick(k.ids[other(o)], n);
      switch (kind) {
        case 'forget':
          return { org: o, agent: ag, tool: 'forget', args: (k) => ({ ids: [theirs(k)], reason: 'x' }) };
        case 'artifact_get':
          return { org: o, agent: ag, tool: 'artifact_get', args: (k) => ({ id: theirs(k) }) };
        case 'plan':
          return { org: o, agent: ag, tool: 'plan', args: (k) => ({ id: theirs(k), status: 'active' }) };
        case 'remember':
          return {
            org: o,
            agent: ag,
            tool: 'remember',
            args: (k) => ({ content: 'take over', supersedes: theirs(k) }),
          };
        case 'space':
          return { org: o, agent: ag, tool: 'space', args: (k) => ({ view: 'ledger', entry_id: theirs(k) }) };
        default:
          return { org: o, agent: ag, tool: 'artifact_get', args: (k) => ({ name: pick(k.names[other(o)], n) }) };
      }
    });
  return fc.oneof(write, write, plan, artifact, recall, recall, space, reach);
}

/** What of org `o` must never reach the other: its words, markers, agents, project, ids, names. */
function secretsOf(o: Org, k: Known): string[] {
  return [...WORDS[o], `${o}-marker-`, ...AGENTS[o], PROJECT[o], ...k.ids[o], ...k.names[o]];
}

describe.each(DB_KINDS)('isolation as a property on %s', (db) => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer(db);
  });
  afterAll(() => t?.close());

  it('random interleaved calls of two orgs never show one anything of the other', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof(action('a'), action('b')), { minLength: 5, maxLength: 25 }),
        async (actions) => {
          const [alpha, bravo] = [await t.createOrg('Alpha Co'), await t.createOrg('Bravo Co')];
          const keys = { a: alpha.key, b: bravo.key };
          const orgs = { a: alpha.orgId, b: bravo.orgId };
          const known: Known = { ids: { a: [], b: [] }, names: { a: [], b: [] }, n: 0 };
          const written: Record<Org, number> = { a: 0, b: 0 };
          for (const act of actions) {
            known.n++;
            const args = act.args(known);
            const res = await rawPost(t.mcpUrl, toolCall(act.tool, args), {
              'X-Svc-Key': keys[act.org],
              'X-Svc-Agent': AGENTS[act.org][act.agent],
              'X-Svc-Project': `https://${PROJECT[act.org]}.git`,
            });
            const text = await res.text();
            expect(res.status, text).not.toBe(500);
            // what it sent of the other org (an id it reached for) may come back; nothing else may
            const sent = JSON.stringify(args);
            for (const secret of secretsOf(other(act.org), known)) {
              if (!sent.includes(secret))
                expect(text, `${act.tool} of org ${act.org} leaked "${secret}"`).not.toContain(secret);
            }
            const result = (
              JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } }
            ).result;
            const s = result?.structuredContent;
            if (!s || result?.isError) continue;
            const entry = s.entry as { id: string } | undefined;
            const artifact = s.artifact as { id: string; name: string } | undefined;
            if (entry || act.tool === 'artifact_put') written[act.org]++; // every successful call here writes
            if (entry) known.ids[act.org].push(entry.id);
            if (artifact && act.tool === 'artifact_put') {
              known.ids[act.org].push(artifact.id);
              known.names[act.org].push(artifact.name);
            }
          }
          // each org's ledger holds its own events only (its first key's creation and its writes)
          // and verifies; its agents are its own
          for (const o of ['a', 'b'] as Org[]) {
            const verify = await fetch(`${t.url}/admin/orgs/${orgs[o]}/ledger/verify`, {
              headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
            });
            expect(await verify.json()).toEqual({ ok: true, events: 1 + written[o], broken_at: null });
            const res = await rawPost(t.mcpUrl, toolCall('space', { view: 'agents' }), { 'X-Svc-Key': keys[o] });
            const agents = (
              (await res.json()) as { result: { structuredContent: { agents: { agent: string }[] } } }
            ).result.structuredContent.agents.map((x) => x.agent);
            for (const name of agents) expect([...AGENTS[o], 'test']).toContain(name);
          }
        },
      ),
      { numRuns: db === 'pglite' ? 25 : 15 },
    );
  }, 240_000);

  it.runIf(db === 'postgres')('the service role with no org set reads no row of org data', async () => {
    const pg = t.pg;
    if (!pg) throw new Error('postgres target without a superuser client');
    const tables = (
      await pg.query<{ name: string }>(
        `SELECT c.relname AS name FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' AND c.relkind = 'r' ORDER BY 1`,
      )
    ).map((r) => r.name);
    // tables that hold no org's data: plans (what an org may use), failed sign-in counters by
    // address, and the ids that exist somewhere (so another org's id is 403, not 404)
    const shared = ['service_plans', 'auth_failures', 'object_ids', '__drizzle_migrations'];
    const counts: Record<string, number> = {};
    for (const table of tables.filter((x) => !shared.includes(x))) {
      const [row] = await pg.queryAs<{ n: string }>('cairn_app', `SELECT count(*) AS n FROM "${table}"`);
      counts[table] = Number(row?.n);
    }
    expect(Object.keys(counts)).toEqual(
      expect.arrayContaining(['entries', 'artifacts', 'ledger', 'api_keys', 'oauth_tokens']),
    );
    // there is data: the property above wrote it
    const [entries] = await pg.query<{ n: string }>('SELECT count(*) AS n FROM entries');
    expect(Number(entries?.n)).toBeGreaterThan(0);
    expect(Object.entries(counts).filter(([, n]) => n > 0)).toEqual([]);
  });
});
