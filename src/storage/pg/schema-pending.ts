/**
 * What a write leaves for its org's seal (docs/design.md, "One org under many writers"): a write
 * inserts these rows and takes no shared row of its org; whichever statement holds the org's seal
 * lock next folds them into the ledger, the statistics and the usage rows
 * (sql/entries/cairn_org_seal.sql). Row-level security as for every table of org data.
 */
import { bigint, boolean, date, integer, jsonb, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { orgs } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

export const ledgerPending = pgTable(
  'ledger_pending',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    at: at('at').notNull(),
    agent: text('agent').notNull(),
    op: text('op').notNull(),
    entryId: uuid('entry_id'),
    project: text('project'),
    contentSha256: text('content_sha256'),
    reason: text('reason'),
    verified: boolean('verified').notNull(),
    private: boolean('private').notNull(),
    /** ledger.actor_kind; null on events left pending before drizzle/0032. */
    actorKind: text('actor_kind'),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] })],
);

/** An entry counted in (sign 1) or out (-1) of recall's statistics and `space`'s counts. */
export const statPending = pgTable(
  'stat_pending',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    sign: integer('sign').notNull(),
    /** The entry's distinct lexemes (its `search`) and their number with repeats (`length`). */
    terms: text('terms').array().notNull(),
    length: integer('length').notNull(),
    scope: text('scope').notNull(),
    projectKey: text('project_key').notNull(),
    agentKey: text('agent_key').notNull(),
    kind: text('kind').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] })],
);

/** Calls and stored bytes of an org whose plan sets no such quota (a quota is counted exactly, at once). */
export const usagePending = pgTable(
  'usage_pending',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    id: bigint('id', { mode: 'number' }).generatedAlwaysAsIdentity(),
    day: date('day', { mode: 'string' }).notNull(),
    calls: integer('calls').notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.id] })],
);

/**
 * A plan's earlier versions (a plan is updated in place): each update keeps the version it
 * replaced, valid from its `updated_at` until the next one's, so `recall` with `as_of` shows the
 * version current then (docs/design.md, "Memory across time"). Not pending: kept as it is
 * written. Forgetting the plan deletes them (sql/tools/cairn_forget_for.sql).
 */
export const entryVersions = pgTable(
  'entry_versions',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    entryId: uuid('entry_id').notNull(),
    version: integer('version').notNull(),
    title: text('title'),
    status: text('status'),
    steps: jsonb('steps'),
    content: text('content').notNull(),
    updatedAt: at('updated_at').notNull(),
    updatedBy: text('updated_by'),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.entryId, t.version] })],
);

/**
 * An import's ledger events and projects, held until it ends (sql/admin/cairn_admin_import_*.sql): the ledger and the
 * projects take no deletes from the service's role, so what an import adds to them is added in
 * its last statement, all or nothing, and an aborted import leaves nothing there.
 */
export const importStaging = pgTable(
  'import_staging',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    part: text('part').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    row: jsonb('row').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.part, t.n] })],
);
