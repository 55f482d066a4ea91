/**
 * Recall as coding agents ask (docs/design.md, "Recall"): tags, sources and the parts of
 * identifiers are searched; the trade's abbreviations, synonyms and word prefixes are found but
 * weigh below the question's own words; the kind a question asks for and a topic named in an
 * entry's lead weigh up; a concept counts once; what barely matches is left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

describe.each(DB_KINDS)('recall for coding agents on %s', (db) => {
  let t: TestServer;
  let s: McpSession;
  const ids: Record<string, string> = {};
  const write = async (name: string, tool: string, args: Record<string, unknown>) => {
    ids[name] = entryId(await s.call(tool, args));
  };
  const top = async (query: string) =>
    ((await s.call('recall', { query })).structured.hits as { id: string }[]).map((h) => h.id);
  const nameOf = (id: string | undefined) => Object.entries(ids).find(([, v]) => v === id)?.[0];
  const names = async (query: string) => (await top(query)).map(nameOf);

  beforeAll(async () => {
    t = await startTestServer(db);
    const org = await t.createOrg('acme');
    s = await connect('v2', t.mcpUrl, { key: org.key, agent: 'dev', project: 'https://github.com/acme/shop.git' });
    await write('pg', 'decide', {
      content: 'Use PostgreSQL 17 instead of 16 for the orders service.',
      rationale: 'logical replication of the orders table',
      tags: ['database'],
    });
    for (let i = 0; i < 4; i++) {
      await write(`db${i}`, 'remember', { content: `The reporting database replica ${i} is read-only.` });
    }
    await write('builtin', 'remember', { content: 'Built-in caching of product images in the CDN.' });
    await write('buildfail', 'observe', { content: 'CI failed on main: the build ran out of memory.', source: 'ci' });
    await write('kafka', 'observe', {
      content: 'Producer error: org.apache.kafka.common.errors.RecordTooLargeException on topic orders.',
      source: 'grafana',
    });
    await write('tsconfig', 'remember', { content: 'Enabled noUncheckedIndexedAccess in tsconfig.json.' });
    await write('flaky', 'observe', {
      content: 'A checkout test failed twice.',
      source: 'playwright',
      tags: ['flaky'],
    });
    await write('k8s', 'remember', { content: 'Kubernetes jobs run in the batch namespace.' });
    await write('lead', 'remember', { content: 'Feature flags: keys are snake_case and owned by a team.' });
    await write('tail', 'remember', { content: 'The onboarding doc lists the team tools, among them feature flags.' });
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  it('finds the decision a question asks for, by its tag, before memories that share its words', async () => {
    expect((await names('what did we decide about the database?'))[0]).toBe('pg');
  });

  it("finds an abbreviation's word and a prefix's longer word", async () => {
    expect((await names('PG version'))[0]).toBe('pg');
    expect((await names('postgres'))[0]).toBe('pg'); // the org wrote only "PostgreSQL"
    expect((await names('k8s namespace'))[0]).toBe('k8s');
  });

  it('ranks the exact word above its expansions', async () => {
    const found = await names('build');
    expect(found.indexOf('buildfail')).toBeLessThan(found.indexOf('builtin'));
    expect(found[0]).toBe('buildfail');
  });

  it('finds an identifier by its last part, a file by its name, an entry by its source or tag', async () => {
    expect((await names('RecordTooLargeException'))[0]).toBe('kafka');
    expect((await names('tsconfig change'))[0]).toBe('tsconfig');
    expect((await names('grafana'))[0]).toBe('kafka');
    expect((await names('flaky'))[0]).toBe('flaky');
  });

  it('weighs a topic named in the lead of an entry above a mention at its end', async () => {
    const found = await names('feature flags');
    expect(found.slice(0, 2)).toEqual(['lead', 'tail']);
  });

  it('returns nothing rather than what shares no word or meaning, and leaves out what barely matches', async () => {
    expect(await top('xylophone quagmire')).toEqual([]);
    const hits = (await s.call('recall', { query: 'RecordTooLargeException orders' })).structured.hits as {
      score: number;
    }[];
    expect(hits.every((h) => h.score >= 0.1 * (hits[0]?.score ?? 0))).toBe(true);
  });
});
