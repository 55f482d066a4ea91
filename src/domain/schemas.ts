/**
 * The contract's zod pieces: argument rules shared by the operations (operations.ts) and the
 * shapes of what they return — entries, hits, artifacts, ledger events. The TypeScript types of
 * those shapes are inferred from here, and a test checks that the JSON the SQL functions build
 * has exactly these keys (test/storage/contract.test.ts).
 */
import { z } from 'zod';
import { ENTRY_REF_RE, UUID_RE } from './ids';
import { MAX_CONTENT } from './limits';
import { STEP_STATUSES } from './plans';

export const SCOPES = ['org', 'project', 'agent'] as const;
export type Scope = (typeof SCOPES)[number];
export const KINDS = ['memory', 'observation', 'plan', 'decision', 'note'] as const;
export type Kind = (typeof KINDS)[number];

export const MAX_METADATA_BYTES = 4096;

function hasNul(s: string): boolean {
  return s.includes('\u0000');
}

/** Text that Postgres can store exactly: no NUL characters, no unpaired surrogates. */
export function text(min: number, max: number) {
  return z
    .string()
    .min(min, min === 1 ? 'must not be empty' : `must be at least ${min} characters`)
    .max(max, `must be at most ${max} characters`)
    .refine((s) => !hasNul(s), 'must not contain NUL (\\u0000) characters')
    .refine((s) => s.isWellFormed(), 'must be valid Unicode (no unpaired surrogate characters)');
}

export const content = text(1, MAX_CONTENT)
  .refine((s) => s === '' || s.trim() !== '', 'must not be blank (it holds only whitespace)')
  .describe('The text to store.');

export const id = z.string().regex(UUID_RE, 'must be an id returned by a Cairn tool (a UUID)');

/** An entry's id, or its handle as the brief shows it (the id's last 8 hex digits). */
export const entryRef = z
  .string()
  .regex(ENTRY_REF_RE, "must be an id (a UUID) or an entry's handle (its id's last 8 hex digits, as the brief shows)");

export const isoTime = z
  .string()
  .refine(
    (s) => /^\d{4}-\d{2}-\d{2}/.test(s) && !Number.isNaN(Date.parse(s)),
    'must be an ISO 8601 time, e.g. 2026-01-31T12:00:00Z',
  );

/**
 * A repo-relative file or folder an entry is about (contract §3), stored as written once made
 * plain: './' and leading, trailing or repeated '/' dropped, backslashes as '/'. An absolute path,
 * a '.' or '..' part, or a control character is refused.
 */
export const anchorPath = text(1, 512)
  .transform((s) =>
    s
      .trim()
      .replaceAll('\\', '/')
      .replace(/\/{2,}/g, '/')
      .replace(/^(\.\/)+/, '')
      .replace(/\/+$/, ''),
  )
  .refine((p) => p !== '' && !p.startsWith('/') && !/^[a-zA-Z]:/.test(p), 'must be a path inside the repository')
  .refine((p) => !p.split('/').some((part) => part === '.' || part === '..'), 'must not contain . or .. parts')
  .refine((p) => !/[\u0000-\u001f\u007f]/.test(p), 'must not contain control characters');

export const anchors = {
  paths: z.array(anchorPath).max(50, 'at most 50 paths').optional().describe('Files or folders it is about.'),
  commit: z
    .string()
    .regex(/^[0-9a-fA-F]{7,40}$/, 'must be a hex commit id of 7 to 40 characters')
    .transform((s) => s.toLowerCase())
    .optional()
    .describe('Its git commit.'),
};

export const tags = z
  .array(text(1, 64).refine((s) => s.trim() === s, 'must not start or end with spaces'))
  .max(32, 'at most 32 tags')
  .describe('Labels to filter by.');

/** A JSON value holds a NUL, an unpaired surrogate (in a key or a string) or nests deeper than 32. */
export function jsonHasNul(v: unknown, depth = 0): boolean {
  if (depth > 32) return true;
  if (typeof v === 'string') return hasNul(v) || !v.isWellFormed();
  if (Array.isArray(v)) return v.some((x) => jsonHasNul(x, depth + 1));
  if (v && typeof v === 'object') {
    return Object.entries(v).some(([k, x]) => hasNul(k) || !k.isWellFormed() || jsonHasNul(x, depth + 1));
  }
  return false;
}

export const metadata = z
  .record(z.string(), z.unknown())
  // depth first, and nothing after it fails: JSON.stringify of a deeper object could overflow the stack
  .refine((m) => !jsonHasNul(m), {
    message: 'must not contain NUL characters, unpaired surrogates or nesting deeper than 32',
    abort: true,
  })
  .refine(
    (m) => new TextEncoder().encode(JSON.stringify(m)).length <= MAX_METADATA_BYTES,
    `must be at most ${MAX_METADATA_BYTES} bytes as JSON`,
  )
  .describe('Any JSON, up to 4 KiB.');

export const project = z.string().max(1024, 'must be at most 1024 characters').describe('Git remote URL or repo path.');

export const scope = z.enum(SCOPES).describe('project (default), org, or agent: only you.');

export const kind = z.enum(KINDS);

export const step = z.object({
  text: text(1, 1024).describe('What to do.'),
  status: z.enum(STEP_STATUSES).default('todo').describe('Its progress.'),
});

export const ttlSeconds = z
  .number()
  .int('must be a whole number of seconds')
  .min(1)
  .max(10 * 365 * 24 * 3600)
  .describe('Seconds until it is deleted.');

// Output shapes

const time = z.string();
const nullableText = z.string().nullable();

export const entryOut = z.object({
  id: z.string(),
  kind,
  content: z.string(),
  rationale: nullableText,
  source: nullableText,
  title: nullableText,
  status: nullableText,
  steps: z
    .array(
      z.object({
        text: z.string(),
        status: z.string(),
        /** The agent working on it, until `claim_expires_at` (a claim past it holds nothing). */
        claimed_by: z.string().optional(),
        claim_expires_at: z.string().optional(),
      }),
    )
    .nullable(),
  tags: z.array(z.string()),
  scope,
  project: nullableText,
  agent: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: time,
  updated_at: time,
  version: z.number().int(),
  supersedes: nullableText,
  superseded_by: nullableText,
  expires_at: time.nullable(),
  paths: z.array(z.string()).nullable(),
  commit: nullableText,
  /** A newer entry of the project touched one of its paths: it may no longer hold. */
  stale: z
    .object({ paths: z.array(z.string()), since: z.string(), by: z.string(), entry: z.string(), says: z.string() })
    .nullable(),
});

export const artifactOut = z.object({
  id: z.string(),
  name: z.string(),
  version: z.number().int(),
  size: z.number().int(),
  sha256: z.string(),
  content_type: z.string(),
  scope,
  project: nullableText,
  agent: z.string(),
  metadata: z.record(z.string(), z.unknown()),
  created_at: time,
});

/** A recall hit: an entry and its score (cairn_hit_json). */
export const hitOut = entryOut.extend({ score: z.number() });

/** Who acts in a ledger event (ledger.actor_kind). */
const ACTOR_KINDS = ['agent', 'member', 'operator'] as const;

export const eventOut = z.object({
  seq: z.number().int(),
  at: time,
  agent: z.string(),
  op: z.string(),
  entry_id: nullableText,
  project: nullableText,
  content_sha256: nullableText,
  reason: nullableText,
  /** The agent came from the credential (a bound key, an OAuth client), not from a header. */
  verified: z.boolean(),
  actor_kind: z
    .enum(ACTOR_KINDS)
    .nullable()
    .describe(
      'Who acted: agent (a tool call), member (a dashboard user; agent is the email) or operator (CLI, admin API); null on events recorded before kinds were.',
    ),
  prev_hash: z.string(),
  hash: z.string(),
});

export type Entry = z.output<typeof entryOut>;
export type PlanStep = NonNullable<Entry['steps']>[number];
export type Hit = z.output<typeof hitOut>;
export type Artifact = z.output<typeof artifactOut>;
export type LedgerEvent = z.output<typeof eventOut>;

/** Every result says which project it used, and why when it fell back to org-wide. */
export const projectOut = {
  project: nullableText.describe('The canonical project used, or null for org-wide.'),
  notice: z
    .string()
    .optional()
    .describe('What else to know: the project given was not used, the write went to the shared agent.'),
};

/** Optional arguments every write tool takes. */
export const writeOptions = {
  ...anchors,
  tags: tags.optional(),
  metadata: metadata.optional(),
  scope: scope.optional(),
  project: project.optional(),
};
