/** Recall ranking: BM25-like weighting, stemming, any-word matching, exact identifiers, recency. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type McpSession } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

describe.each(DB_KINDS)('recall ranking on %s', (db) => {
  let t: TestServer;
  let orgId: string;
  let s: McpSession;
  const ids: Record<string, string> = {};
  const remember = async (name: string, content: string) => {
    ids[name] = ((await s.call('remember', { content, scope: 'org' })).structured.entry as { id: string }).id;
  };
  const top = async (query: string, limit = 10) =>
    ((await s.call('recall', { query, limit })).structured.hits as { id: string; score: number }[]).map((h) => h.id);

  beforeAll(async () => {
    t = await startTestServer(db);
    const org = await t.createOrg('acme');
    orgId = org.orgId;
    s = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker' });
    for (let i = 0; i < 8; i++)
      await remember(`filler${i}`, `The team met on Monday to talk about the project plan, item ${i}.`);
    await remember('deploy', 'Deployments run from scripts/deploy.sh on the build host.');
    await remember('words', 'Our scripts deploy things; deploy scripts are shell scripts.');
    await remember('kafka', 'Kafka consumers lag when the partition count is too low.');
    await remember('old', 'The staging database password rotates weekly.');
    await remember('new', 'The staging database password rotates weekly!');
    await remember('camel', 'The useEffect hook re-runs when dependencies change.');
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  it('matches any content word of a question, not all of them', async () => {
    expect((await top('why do kafka consumers fall behind on Tuesday?'))[0]).toBe(ids.kafka);
  });

  it('stems words, so other forms of a word match', async () => {
    expect(await top('deploying')).toEqual(expect.arrayContaining([ids.deploy, ids.words]));
    expect((await top('consumer lagging'))[0]).toBe(ids.kafka);
  });

  it('weights rare words over common ones', async () => {
    // "team", "monday", "project" are in eight entries, "partition" in one
    expect((await top('team monday project partition'))[0]).toBe(ids.kafka);
  });

  it('matches identifiers and paths exactly, above entries that only share their words', async () => {
    expect((await top('where is scripts/deploy.sh?'))[0]).toBe(ids.deploy);
    expect((await top('useEffect'))[0]).toBe(ids.camel);
  });

  it('breaks ties by recency', async () => {
    const r = (await s.call('recall', { query: 'staging password rotation' })).structured.hits as {
      id: string;
      score: number;
    }[];
    expect(r.slice(0, 2).map((h) => h.id)).toEqual([ids.new, ids.old]);
    expect(r[0]?.score).toBe(r[1]?.score);
  });

  it('returns nothing for words no entry holds, and recent entries for an empty query', async () => {
    expect(await top('xylophone quagmire')).toEqual([]);
    expect((await top(''))[0]).toBe(ids.camel);
  });

  it.runIf(db === 'postgres')('keeps its statistics equal to a rebuild after writes, updates and forgets', async () => {
    const p = (
      (await s.call('plan', { title: 'migrate kafka', steps: [{ text: 'drain partitions' }] })).structured.entry as {
        id: string;
      }
    ).id;
    await s.call('plan', { id: p, title: 'migrate kafka cluster', steps: [{ text: 'rebalance brokers' }] });
    await s.call('forget', { ids: [ids.filler0, ids.words] });
    const queries = [
      'SELECT lexeme, df FROM term_stats WHERE org_id = $1 AND df > 0 ORDER BY lexeme',
      'SELECT docs, lexemes FROM entry_stats WHERE org_id = $1',
      'SELECT lexeme, entry_id FROM postings WHERE org_id = $1 ORDER BY lexeme, entry_id',
    ];
    const read = () => Promise.all(queries.map((q) => t.pg?.query(q, [orgId])));
    const before = await read();
    await t.pg?.query('SELECT cairn_rebuild_recall_index($1)', [orgId]);
    expect(await read()).toEqual(before);
    expect(before[1]).toEqual([{ docs: '13', lexemes: expect.any(String) }]); // 14 memories + 1 plan − 2 forgotten
    expect(before[2]?.some((r) => r.lexeme === '#scripts/deploy.sh')).toBe(true);
  });
});
