/**
 * Semantic recall end to end, with an OpenAI-compatible embeddings endpoint
 * (test/fixtures/embeddings-server.ts, the real API's limits). On PGlite (pgvector) recall finds
 * by meaning and fuses it with the lexical ranking; on the Postgres server here (no pgvector),
 * on the Worker before its vector store is set up, and whenever the provider fails, recall stays
 * lexical and nothing written is lost.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../src/node/node';
import { migratePostgres } from '../../src/storage/pg/client';
import { type EmbeddingsServer, startEmbeddingsServer } from '../fixtures/embeddings-server';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

function semanticEnv(emb: EmbeddingsServer): Record<string, string> {
  return {
    CAIRN_EMBEDDINGS: 'openai',
    CAIRN_EMBEDDINGS_URL: emb.url,
    CAIRN_EMBEDDINGS_KEY: emb.key,
    CAIRN_EMBEDDINGS_MODEL: 'test-embedding-small',
    CAIRN_EMBEDDINGS_DIMENSIONS: '64',
    CAIRN_EMBEDDINGS_TIMEOUT_MS: '400',
  };
}

const hitIds = (r: { structured: Record<string, unknown> }) => (r.structured.hits as { id: string }[]).map((h) => h.id);

describe('semantic recall on pglite', () => {
  let emb: EmbeddingsServer;
  let t: TestServer;
  let s: McpSession;
  let orgId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    emb = await startEmbeddingsServer();
    t = await startTestServer('pglite', semanticEnv(emb));
    const org = await t.createOrg('acme');
    orgId = org.orgId;
    s = await connect('v2', t.mcpUrl, { key: org.key, agent: 'alice' });
    ids.car = entryId(await s.call('remember', { content: 'We bought a new automobile for the team offsite.' }));
    ids.standup = entryId(await s.call('remember', { content: 'The standup moves to ten on Mondays.' }));
    ids.kafka = entryId(await s.call('remember', { content: 'Kafka consumers lag when partitions are few.' }));
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
    await emb?.close();
  });

  it('finds a memory by meaning when it shares no word with the question', async () => {
    const r = await s.call('recall', { query: 'Which car did we get?' });
    expect(hitIds(r)[0]).toBe(ids.car);
  });

  it('keeps lexical matches first when the words match', async () => {
    const r = await s.call('recall', { query: 'standup time' });
    expect(hitIds(r)[0]).toBe(ids.standup);
  });

  it('returns only what the reader may see: private entries and other orgs stay out', async () => {
    const bob = await connect('v2', t.mcpUrl, { key: (await t.createKey(orgId)).key, agent: 'bob' });
    const other = await t.createOrg('globex');
    const stranger = await connect('v2', t.mcpUrl, { key: other.key, agent: 'eve' });
    try {
      const secret = entryId(await s.call('note', { content: 'my puppy is called Biscuit' }));
      const foreign = entryId(await stranger.call('remember', { content: 'Our hound sleeps all day.' }));
      // alice finds her own private note by meaning
      expect(hitIds(await s.call('recall', { query: 'dog' }))).toContain(secret);
      // bob, in the same org, does not; nor does anyone see the other org's entry
      expect(hitIds(await bob.call('recall', { query: 'dog' }))).not.toContain(secret);
      expect(hitIds(await s.call('recall', { query: 'dog' }))).not.toContain(foreign);
      expect(hitIds(await stranger.call('recall', { query: 'dog' }))).toEqual([foreign]);
    } finally {
      await bob.close();
      await stranger.close();
    }
  });

  it('embeds a long entry within the provider limits, from its beginning', async () => {
    const before = emb.requests; // 16,200 bytes: twice what one input may hold
    const long = entryId(
      await s.call('remember', { content: `The sedan needs new tyres. ${'Étude des pneus. '.repeat(900)}` }),
    );
    expect(emb.requests).toBe(before + 1);
    const hits = hitIds(await s.call('recall', { query: 'vehicle', limit: 5 }));
    expect(hits).toContain(long);
  });

  it('forgets an entry together with its vector', async () => {
    const gone = entryId(await s.call('remember', { content: 'The physician visits on Friday.' }));
    expect(hitIds(await s.call('recall', { query: 'doctor' }))[0]).toBe(gone);
    await s.call('forget', { ids: [gone] });
    expect(hitIds(await s.call('recall', { query: 'doctor' }))).not.toContain(gone);
  });
});

describe('semantic recall when the provider fails', () => {
  let emb: EmbeddingsServer;
  let t: TestServer;
  let s: McpSession;

  beforeAll(async () => {
    emb = await startEmbeddingsServer();
    t = await startTestServer('pglite', semanticEnv(emb));
    s = await connect('v2', t.mcpUrl, { key: (await t.createOrg('acme')).key, agent: 'alice' });
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
    await emb?.close();
  });

  it('answers lexically within the timeout, keeps every write, and stops asking while it is down', async () => {
    emb.hang(1, 3000);
    const started = Date.now();
    const first = await s.call('remember', { content: 'The automobile is parked outside.' });
    expect(first.isError).toBe(false);
    expect(Date.now() - started).toBeLessThan(2500); // the 400 ms deadline, not the provider's 3 s
    emb.fail(100, 500);
    const asked = emb.requests;
    const second = await s.call('remember', { content: 'The van is parked in the garage.' });
    const r = await s.call('recall', { query: 'parked' });
    // both writes are stored and found by their words; the provider was not asked again
    expect(hitIds(r).sort()).toEqual([entryId(first), entryId(second)].sort());
    expect(hitIds(await s.call('recall', { query: 'car' }))).toEqual([]);
    expect(emb.requests).toBe(asked);
  });
});

describe.each([
  { db: 'postgres' as const, asked: 0 },
  { db: 'workers' as const, asked: 3 },
])('semantic recall on $db without a vector store', ({ db, asked }) => {
  let emb: EmbeddingsServer;
  let t: TestServer;

  beforeAll(async () => {
    emb = await startEmbeddingsServer();
    t = await startTestServer(db, semanticEnv(emb));
  });
  afterAll(async () => {
    await t?.close();
    await emb?.close();
  });

  it('stays lexical, and says why where the database has no pgvector', async () => {
    // the Node server learns it when it opens the database, and then never calls the provider;
    // the Worker cannot tell from its bindings, so it asks, until `cairn migrate` sets vectors up
    const migrated = await migratePostgres(t.pg?.url ?? '', {
      vectors: { model: 'test-embedding-small', dimensions: 64 },
    });
    expect(migrated.vectorsUnavailable).toBe('the database has no pgvector extension');
    const s = await connect('v2', t.mcpUrl, { key: (await t.createOrg('acme')).key, agent: 'alice' });
    try {
      const id = entryId(await s.call('remember', { content: 'We bought a new automobile.' }));
      expect(hitIds(await s.call('recall', { query: 'automobile' }))).toEqual([id]);
      expect(hitIds(await s.call('recall', { query: 'car' }))).toEqual([]);
      expect(emb.requests).toBe(asked);
    } finally {
      await s.close();
    }
  });
});

describe('cairn embed: semantic recall switched on for an existing memory', () => {
  let emb: EmbeddingsServer;
  let t: TestServer;

  beforeAll(async () => {
    emb = await startEmbeddingsServer();
    t = await startTestServer('pglite'); // semantic recall off
  });
  afterAll(async () => {
    await t?.close();
    await emb?.close();
  });

  it('gives the entries written before their vectors, once, and recall then finds them by meaning', async () => {
    const org = await t.createOrg('acme');
    const s = await connect('v2', t.mcpUrl, { key: org.key, agent: 'alice' });
    const car = entryId(await s.call('remember', { content: 'We bought a new automobile.' }));
    const plan = entryId(
      await s.call('plan', { title: 'Replace the sedan tyres', steps: [{ text: 'book a garage' }] }),
    );
    await s.close();
    await t.stop();

    const env = { ...process.env, ...semanticEnv(emb), CAIRN_DATA_DIR: t.dataDir, DATABASE_URL: '' };
    const embed = async () =>
      JSON.parse(
        (
          await promisify(execFile)(
            process.execPath,
            [join(import.meta.dirname, '..', '..', 'bin', 'cairn.js'), 'embed', '--json'],
            { env },
          )
        ).stdout,
      );
    expect(await embed()).toEqual({ orgs: [{ org_id: org.orgId, embedded: 2 }] });
    expect(await embed()).toEqual({ orgs: [{ org_id: org.orgId, embedded: 0 }] });

    const server = await startServer({ ...semanticEnv(emb), CAIRN_DATA_DIR: t.dataDir, PORT: '0', HOST: '127.0.0.1' });
    const again = await connect('v2', `${server.url}/mcp`, { key: org.key, agent: 'alice' });
    try {
      expect(hitIds(await again.call('recall', { query: 'car' })).sort()).toEqual([car, plan].sort());
    } finally {
      await again.close();
      await server.close();
    }
  }, 60_000);
});
