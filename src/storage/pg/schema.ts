/**
 * The one drizzle schema of Cairn. Every table that holds an org's data carries `org_id` and is
 * protected by forced row-level security (policies in drizzle/): a query sees only the rows of
 * the org named by the transaction-local setting `cairn.org`, which the per-call SQL functions set
 * after authenticating the API key. `object_ids` holds no org data: it only records that an id
 * exists somewhere, so that an id of another org can be answered 403 instead of "not found".
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  customType,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/**
 * What an org may use (docs/design.md, "Plans and limits"). A null limit is no limit. Orgs with no
 * plan of their own are on the default plan, if one is marked; with none, nothing is limited
 * beyond the installation's own payload limits.
 */
export const servicePlans = pgTable(
  'service_plans',
  {
    id: text('id').primaryKey(),
    /** MCP requests per minute per API key. */
    requestsPerMinute: integer('requests_per_minute'),
    /** Tool calls per org per calendar month (UTC). */
    toolCallsPerMonth: bigint('tool_calls_per_month', { mode: 'number' }),
    /** Entry content and artifact bytes an org holds. */
    storedBytes: bigint('stored_bytes', { mode: 'number' }),
    /** Largest artifact, decoded bytes (at most the installation's CAIRN_MAX_ARTIFACT_BYTES). */
    artifactBytes: bigint('artifact_bytes', { mode: 'number' }),
    /** Longest entry content, in characters (at most 16,384). */
    entryChars: integer('entry_chars'),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('service_plans_default_idx').on(t.isDefault).where(sql`${t.isDefault}`)],
);

export const orgs = pgTable('orgs', {
  id: uuid('id').primaryKey(),
  name: text('name').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  /** Null: the default plan. */
  planId: text('plan_id').references(() => servicePlans.id),
});

/** An org's metered use: this month's tool calls and the bytes it holds. Its row lock makes quotas exact. */
export const orgUsage = pgTable('org_usage', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  /** First day of the month `month_calls` counts. */
  month: date('month', { mode: 'string' }).notNull(),
  monthCalls: bigint('month_calls', { mode: 'number' }).notNull(),
  storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull(),
});

/** Tool calls per org per day (UTC), and the bytes held at the day's last call: the dashboard's usage. */
export const usageDays = pgTable(
  'usage_days',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    day: date('day', { mode: 'string' }).notNull(),
    calls: bigint('calls', { mode: 'number' }).notNull(),
    storedBytes: bigint('stored_bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.day] })],
);

/** Per-credential request rate (GCRA): an API key's or an OAuth grant's next theoretical arrival. */
export const keyRates = pgTable('key_rates', {
  /** An API key's id, or an OAuth grant's. */
  keyId: uuid('key_id').primaryKey(),
  orgId: uuid('org_id').notNull(),
  tat: at('tat').notNull(),
});

/** Failed authentication per client address and door (`mcp`, `signin`), as a GCRA state. */
export const authFailures = pgTable('auth_failures', {
  bucket: text('bucket').primaryKey(),
  tat: at('tat').notNull(),
});

export const apiKeys = pgTable(
  'api_keys',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** SHA-256 (hex) of the secret; the secret itself is never stored. */
    hash: text('hash').notNull(),
    /** First characters of the secret, for recognising a key in a list. */
    prefix: text('prefix').notNull(),
    name: text('name').notNull(),
    /** The agent the key is bound to: it acts as that agent only (contract §5); null: any, by header. */
    agent: text('agent'),
    createdBy: text('created_by').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [uniqueIndex('api_keys_hash_idx').on(t.hash), index('api_keys_org_idx').on(t.orgId)],
);

export const projects = pgTable(
  'projects',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** Canonical identifier, e.g. `github.com/acme/widgets` or `/home/me/repo`. */
    canonical: text('canonical').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.canonical] })],
);

export const entries = pgTable(
  'entries',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    kind: text('kind').notNull(),
    content: text('content').notNull(),
    contentSha256: text('content_sha256').notNull(),
    rationale: text('rationale'),
    source: text('source'),
    title: text('title'),
    status: text('status'),
    steps: jsonb('steps'),
    tags: text('tags').array().notNull().default(sql`'{}'::text[]`),
    scope: text('scope').notNull(),
    project: text('project'),
    agent: text('agent').notNull(),
    metadata: jsonb('metadata').notNull().default(sql`'{}'::jsonb`),
    createdAt: at('created_at').notNull().defaultNow(),
    updatedAt: at('updated_at').notNull().defaultNow(),
    version: integer('version').notNull().default(1),
    /** Repo-relative files or folders the entry is about, and the commit it was written against (contract §3). */
    paths: text('paths').array(),
    commit: text('commit'),
    /** When the same content was written again (deduplicated): it holds as of then (stale marks). */
    confirmedAt: at('confirmed_at'),
    /** A plan: who made its current version, and what that update changed (a stale expected_version is told both). */
    updatedBy: text('updated_by'),
    lastChange: text('last_change'),
    supersedes: uuid('supersedes'),
    supersededBy: uuid('superseded_by'),
    /**
     * An org entry that project entries replaced for their project only (contract §4, scoped
     * supersession): project -> the replacement's id. Current everywhere else.
     */
    supersededIn: jsonb('superseded_in'),
    expiresAt: at('expires_at'),
    /** The project, '' for none: recall's neighbours are found by it on an index. */
    projectKey: text('project_key').notNull().generatedAlwaysAs(sql`coalesce(project, '')`),
    /** What recall matches: set on every write by the trigger of sql/recall/cairn_entry_search.sql. */
    search: tsvector('search'),
    /** The short handle the brief shows and the tools accept for the id: its last 8 hex digits (random bits). */
    handle: text('handle').notNull().generatedAlwaysAs(sql`right(id::text, 8)`),
  },
  (t) => [
    index('entries_org_created_idx').on(t.orgId, t.createdAt),
    // a brief's sections: the newest current decisions, plans, observations of an org
    index('entries_org_kind_created_idx').on(t.orgId, t.kind, t.createdAt),
    index('entries_org_sha_idx').on(t.orgId, t.contentSha256),
    // entries whose time-to-live has run out, which space's counts leave out
    index('entries_org_expires_idx').on(t.orgId, t.expiresAt).where(sql`expires_at IS NOT NULL`),
    // an org's entries in a project, in the order they were written (forget's check that a project still has any)
    index('entries_org_project_id_idx').on(t.orgId, t.projectKey, t.id),
    // recall's thread of work: the org's writes just before and after one, in the order the service took them
    index('entries_org_id_idx').on(t.orgId, t.id),
    // a short handle to the entries it may name
    index('entries_org_handle_idx').on(t.orgId, t.handle),
  ],
);

/**
 * Recall's inverted index, kept by triggers on entries: one row per (org, lexeme, project, entry), and per
 * identifier or path the entry names (`#` + the identifier, lower-cased). A B-tree on leakproof
 * equality: under row-level security Postgres will not use a GIN index through `@@` or `&&`
 * (not leakproof), so a full-text GIN index would be scanned row by row.
 */
export const postings = pgTable(
  'postings',
  {
    /**
     * No foreign key to orgs: every posting is written by its entry's row trigger and deleted with
     * the entry (cairn_entry_index), whose own key holds the org; checking ~40 rows a write against
     * orgs again was a fifth of the postings' insert (drizzle/0033).
     */
    orgId: uuid('org_id').notNull(),
    lexeme: text('lexeme').notNull(),
    /** The entry's project, '' for none: a project read scans its project's keys and the org-wide ones. */
    project: text('project').notNull(),
    entryId: uuid('entry_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.lexeme, t.project, t.entryId] })],
);

/**
 * Recall statistics per org, kept by triggers on entries: how many entries hold each lexeme
 * (document frequency, for BM25's idf) and the org's entry count and total length (for the
 * length normalisation). Per org, so that one org's words never shape another's ranking.
 */
export const termStats = pgTable(
  'term_stats',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    lexeme: text('lexeme').notNull(),
    /**
     * '' for the entries everyone who reads them shares, the agent's name for its private ones:
     * a reader's statistics are the shared rows and its own (docs/design.md, "Private means absent").
     */
    agentKey: text('agent_key').notNull().default(''),
    df: integer('df').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.lexeme, t.agentKey] })],
);

export const entryStats = pgTable(
  'entry_stats',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** As in term_stats: '' shared, else the agent of private entries. */
    agentKey: text('agent_key').notNull().default(''),
    docs: bigint('docs', { mode: 'number' }).notNull(),
    lexemes: bigint('lexemes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.agentKey] })],
);

export const artifacts = pgTable(
  'artifacts',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    version: integer('version').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    contentType: text('content_type').notNull(),
    scope: text('scope').notNull(),
    project: text('project'),
    agent: text('agent').notNull(),
    /** Key of the bytes in the blob store; always `<org_id>/<artifact id>`, never derived from the name. */
    blobKey: text('blob_key').notNull(),
    metadata: jsonb('metadata').notNull().default(sql`'{}'::jsonb`),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('artifacts_org_name_idx').on(t.orgId, t.name)],
);

export const ledger = pgTable(
  'ledger',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    seq: bigint('seq', { mode: 'number' }).notNull(),
    at: at('at').notNull(),
    agent: text('agent').notNull(),
    op: text('op').notNull(),
    entryId: uuid('entry_id'),
    project: text('project'),
    contentSha256: text('content_sha256'),
    reason: text('reason'),
    /** The agent came from the credential (a bound key, an OAuth client without X-Svc-Agent), not a header. */
    verified: boolean('verified').notNull().default(false),
    /**
     * The event is about an entry or artifact private to its agent: other agents' views leave it
     * out. Not covered by the hash (it decides who sees the event, not what happened).
     */
    private: boolean('private').notNull().default(false),
    /**
     * A private event's secret: random, covered by its hash, shown to no reader (only the operator's
     * verifier and an export with private notes), so a reader cannot confirm a guess of a hidden
     * note's text from the hashes it sees. Null on shared events and on events before drizzle/0031.
     */
    salt: text('salt'),
    /**
     * Who acted: 'agent' (a tool call), 'member' (a dashboard user; `agent` holds the email) or
     * 'operator' (`agent` is 'cli', 'admin-api' or 'first-start'). Covered by the hash. Null on
     * events before drizzle/0032, whose kind was not recorded.
     */
    actorKind: text('actor_kind'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.orgId, t.seq] }),
    index('ledger_org_entry_idx').on(t.orgId, t.entryId),
    // space ledger by agent, and since a time, without reading the whole ledger
    index('ledger_org_agent_seq_idx').on(t.orgId, t.agent, t.seq),
    index('ledger_org_at_idx').on(t.orgId, t.at),
  ],
);

/**
 * How many entries (per kind) and artifacts (kind 'artifact', with their bytes) an org holds in
 * each scope, project and — for private ones — agent: kept by triggers as rows change, so `space`
 * counts without reading the entries (sql/entries/cairn_scope_count.sql).
 */
export const scopeCounts = pgTable(
  'scope_counts',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    scope: text('scope').notNull(),
    /** The project, '' for none. */
    projectKey: text('project_key').notNull(),
    /** The agent of a private (`agent` scope) row, '' for shared ones. */
    agentKey: text('agent_key').notNull(),
    kind: text('kind').notNull(),
    n: bigint('n', { mode: 'number' }).notNull(),
    bytes: bigint('bytes', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.scope, t.projectKey, t.agentKey, t.kind] })],
);

/** Each agent's ledger events: how many, the first and the last; kept by the ledger append. */
export const agentActivity = pgTable(
  'agent_activity',
  {
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    agent: text('agent').notNull(),
    /** Events about the agent's private entries and artifacts, which only the agent sees counted. */
    private: boolean('private').notNull().default(false),
    events: bigint('events', { mode: 'number' }).notNull(),
    firstAt: at('first_at').notNull(),
    lastAt: at('last_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orgId, t.agent, t.private] })],
);

/** The head of each org's ledger chain; its row lock serialises appends per org. */
export const ledgerHeads = pgTable('ledger_heads', {
  orgId: uuid('org_id')
    .primaryKey()
    .references(() => orgs.id, { onDelete: 'cascade' }),
  seq: bigint('seq', { mode: 'number' }).notNull(),
  hash: text('hash').notNull(),
  /**
   * The org id its events' hashes cover: null for the org's own; an org imported from another
   * install keeps the id the chain was started under (docs/design.md, "Export and import").
   */
  chainId: uuid('chain_id'),
  /** An import is loading the org's ledger: writes' events wait, pending, until it ends. */
  importing: boolean('importing').notNull().default(false),
});

export const objectIds = pgTable('object_ids', {
  id: uuid('id').primaryKey(),
});

export type EntryRow = typeof entries.$inferSelect;
export type ArtifactRow = typeof artifacts.$inferSelect;
export type LedgerRow = typeof ledger.$inferSelect;
