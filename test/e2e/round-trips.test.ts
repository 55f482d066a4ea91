/**
 * One database round trip per tool call, counted at the driver: node-postgres queries sent to the
 * Postgres server, and HTTP requests Neon's driver sends to the SQL-over-HTTP endpoint.
 * Authentication, project resolution, the operation and its ledger event are all inside it.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/app';
import { parseConfig } from '../../src/config';
import type { Store } from '../../src/domain/ports';
import { adminActions } from '../../src/operator/admin';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { APP_ROLE, migratePostgres } from '../../src/storage/pg/client';
import { createNeonStore } from '../../src/storage/pg/neon';
import { createPgStore } from '../../src/storage/pg/store';
import { startNeonHttpFixture } from '../fixtures/neon-http';
import { connect, type McpSession } from '../helpers/clients';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';

let sent = 0;
/** A node-postgres client that counts the queries it sends (each is one round trip). */
class CountingClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded query signature
  override query(...args: any[]): any {
    sent++;
    // biome-ignore lint/suspicious/noExplicitAny: forwarding the same overload
    return (super.query as any)(...args);
  }
}

interface Path {
  name: string;
  open(db: TestDatabase): Promise<{ store: Store; count: () => number; close: () => Promise<void> }>;
}

const PATHS: Path[] = [
  {
    name: 'node-postgres',
    async open(db) {
      const pool = new pg.Pool({
        connectionString: db.url,
        Client: CountingClient,
        options: `-c role=${APP_ROLE}`,
        max: 4,
      });
      const store = createPgStore(
        ({ text, params }) => pool.query(text, params),
        () => pool.end(),
      );
      return { store, count: () => sent, close: () => store.close() };
    },
  },
  {
    name: 'Neon HTTP',
    async open(db) {
      const neon = await startNeonHttpFixture();
      const store = createNeonStore(db.url, neon.endpoint);
      return { store, count: () => neon.requests, close: () => neon.close() };
    },
  },
];

const PROJECT = 'https://github.com/acme/round-trips.git';

describe.each(PATHS)('round trips per tool call on $name', (path) => {
  let db: TestDatabase;
  let opened: Awaited<ReturnType<Path['open']>>;
  let server: ReturnType<typeof serve>;
  let s: McpSession;
  let orgId: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    db = await createTestDatabase();
    await migratePostgres(db.url);
    opened = await path.open(db);
    const { org, key } = await adminActions(opened.store, 'test').createOrg('rt');
    orgId = org.id;
    const config = parseConfig({ HOST: '127.0.0.1', CAIRN_DATA_DIR: `/tmp/cairn-rt-${process.pid}` });
    const app = createApp({ config, store: opened.store, blobs: createFsBlobStore(`${config.dataDir}/blobs`) });
    server = await new Promise((resolve) => {
      const srv = serve({ fetch: app.fetch, port: 0, hostname: '127.0.0.1' }, () => resolve(srv));
    });
    const { port } = server.address() as AddressInfo;
    s = await connect('v2', `http://127.0.0.1:${port}/mcp`, { key: key.secret, agent: 'counter', project: PROJECT });
    // warm up: first artifact_put learns the key's org (an immutable fact) once
    ids.artifact = (
      (await s.call('artifact_put', { name: 'warm.txt', content: 'x' })).structured.artifact as { id: string }
    ).id;
    ids.plan = ((await s.call('plan', { title: 'count round trips' })).structured.entry as { id: string }).id;
    ids.decision = (
      (await s.call('decide', { content: 'count at the driver', rationale: 'honest' })).structured.entry as {
        id: string;
      }
    ).id;
  });
  afterAll(async () => {
    await s?.close();
    await new Promise((r) => server?.close(r));
    await opened?.close();
    await db?.drop();
  });

  const calls: [string, () => Record<string, unknown>][] = [
    ['recall', () => ({ query: 'round trips driver' })],
    ['remember', () => ({ content: `a fact ${Math.random()}` })],
    ['remember', () => ({ content: 'the same fact twice' })],
    ['observe', () => ({ content: 'observed', source: 'test' })],
    ['plan', () => ({ title: 'a new plan', steps: [{ text: 'one' }] })],
    ['plan', () => ({ id: ids.plan, status: 'done' })],
    ['decide', () => ({ content: 'supersede it', rationale: 'newer', supersedes: ids.decision })],
    ['note', () => ({ content: 'private note' })],
    ['artifact_put', () => ({ name: 'report.md', content: '# report' })],
    ['artifact_get', () => ({ id: ids.artifact })],
    ['space', () => ({})],
    ['space', () => ({ view: 'ledger', limit: 5 })],
    ['forget', () => ({ ids: [ids.artifact] })],
  ];

  it.each(calls)('%s costs exactly one round trip', async (tool, args) => {
    const before = opened.count();
    const r = await s.call(tool, args());
    expect(r.isError, r.text).toBe(false);
    expect(opened.count() - before).toBe(1);
  });

  it('a revoked key is refused on its next call: one round trip, and one to count the failure', async () => {
    const created = await adminActions(opened.store, 'test').createKey(orgId, 'temp');
    const { port } = server.address() as AddressInfo;
    const other = await connect('v2', `http://127.0.0.1:${port}/mcp`, { key: created.key.secret, agent: 'temp' });
    expect((await other.call('recall', { query: 'x' })).isError).toBe(false);
    await opened.store.admin.revokeKey(created.key.id, 'test');
    const before = opened.count();
    await expect(other.call('recall', { query: 'x' })).rejects.toThrow(/revoked/);
    // the refusal, then the failed authentication counted against the client's address
    expect(opened.count() - before).toBe(2);
  });
});
