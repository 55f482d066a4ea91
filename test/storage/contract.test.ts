/**
 * One contract: the JSON the SQL functions build for an entry, a recall hit, an artifact and a
 * ledger event has exactly the keys, and the types, of the tools' output schemas
 * (src/domain/schemas.ts) — checked on what the tool functions themselves return. On PGlite and
 * on the Postgres server, in rolled-back transactions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/domain/ids';
import { artifactOut, entryOut, eventOut, hitOut } from '../../src/domain/schemas';
import { withIsoTimes } from '../../src/domain/types';
import { migrate } from '../../src/storage/pg/migrate';
import { callTool, inTransaction, RAW_KINDS, type RawDb, rawDatabase } from '../helpers/raw-db';

type Json = Record<string, unknown>;
const keysOf = (o: object) => Object.keys(o).sort();

describe.each(RAW_KINDS)('SQL results match the output schemas on %s', (kind) => {
  let db: RawDb;
  beforeAll(async () => {
    db = await rawDatabase(kind);
    await migrate(db);
  });
  afterAll(() => db?.close());

  /** Writes one of everything a tool returns and hands back what the tool functions answered. */
  async function results() {
    const project = 'github.com/acme/widgets';
    const written = await callTool<{ entry: Json }>(db, 'cairn_write', 'a', project, {
      kind: 'decision',
      op: 'decide',
      id: uuidv7(),
      content: 'use postgres 17',
      rationale: 'the orders service needs it',
      tags: ['database'],
      metadata: { ticket: 42 },
    });
    const planned = await callTool<{ entry: Json }>(db, 'cairn_plan', 'a', project, {
      id: uuidv7(),
      update: false,
      title: 'upgrade postgres',
      steps: [{ text: 'dump', status: 'todo' }],
      status: 'active',
      allowed_from: [],
      final: ['done', 'abandoned'],
    });
    const recalled = await callTool<{ hits: Json[] }>(db, 'cairn_recall', 'a', project, { query: 'postgres' });
    const recent = await callTool<{ hits: Json[] }>(db, 'cairn_recall', 'a', project, { query: '' });
    const [{ org_id: org } = {}] = await db.query(`SELECT org_id FROM api_keys WHERE hash = 'sql-test-key-hash'`);
    const id = uuidv7();
    const stored = await callTool<{ artifact: Json }>(db, 'cairn_artifact_put', 'a', project, {
      id,
      org_id: org,
      name: 'report.md',
      content_type: 'text/markdown',
      size: 5,
      sha256: 'a'.repeat(64),
      blob_key: `${org}/${id}`,
    });
    const fetched = await callTool<{ artifact: Json }>(db, 'cairn_artifact_get', 'a', project, { id });
    const ledger = await callTool<{ events: Json[] }>(db, 'cairn_space', 'a', project, { view: 'ledger' });
    const overview = await callTool<{ recent: Json[] }>(db, 'cairn_space', 'a', project, {});
    return { written, planned, recalled, recent, stored, fetched, ledger, overview };
  }

  it('entries, hits, artifacts and ledger events have exactly the schemas’ keys and types', async () => {
    await inTransaction(db, async () => {
      const r = await results();
      const entries = [r.written.entry, r.planned.entry];
      const hits = [...r.recalled.hits, ...r.recent.hits];
      const artifacts = [r.stored.artifact, r.fetched.artifact];
      const events = [...r.ledger.events, ...r.overview.recent];
      expect(hits.length).toBeGreaterThanOrEqual(3);
      expect(events.length).toBeGreaterThanOrEqual(3);
      for (const [schema, rows] of [
        [entryOut, entries],
        [hitOut, hits],
        [artifactOut, artifacts],
        [eventOut, events],
      ] as const) {
        for (const row of rows) {
          expect(keysOf(row)).toEqual(keysOf(schema.shape));
          expect(() => schema.strict().parse(withIsoTimes(row))).not.toThrow();
        }
      }
    });
  });
});
