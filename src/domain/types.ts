/** Shapes the service returns; they match the tools' output schemas. */
export type Scope = 'org' | 'project' | 'agent';
export const SCOPES = ['org', 'project', 'agent'] as const;
export const KINDS = ['memory', 'observation', 'plan', 'decision', 'note'] as const;
export type Kind = (typeof KINDS)[number];

export interface PlanStep {
  text: string;
  status: string;
}

export interface Entry {
  id: string;
  kind: Kind;
  content: string;
  rationale: string | null;
  source: string | null;
  title: string | null;
  status: string | null;
  steps: PlanStep[] | null;
  tags: string[];
  scope: Scope;
  project: string | null;
  agent: string;
  metadata: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  version: number;
  supersedes: string | null;
  superseded_by: string | null;
  expires_at: string | null;
}

export interface Artifact {
  id: string;
  name: string;
  version: number;
  size: number;
  sha256: string;
  content_type: string;
  scope: Scope;
  project: string | null;
  agent: string;
  metadata: Record<string, unknown>;
  created_at: string;
}

export interface LedgerEvent {
  seq: number;
  at: string;
  agent: string;
  op: string;
  entry_id: string | null;
  project: string | null;
  content_sha256: string | null;
  reason: string | null;
  prev_hash: string;
  hash: string;
}

export interface ApiKeyInfo {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Timestamps come back from the database in its session time zone; return them in UTC ISO form. */
export function isoTime(value: unknown): string {
  return new Date(String(value)).toISOString();
}

export function isoTimeOrNull(value: unknown): string | null {
  return value === null || value === undefined ? null : isoTime(value);
}

const TIME_FIELDS = [
  'created_at',
  'updated_at',
  'expires_at',
  'at',
  'last_used_at',
  'revoked_at',
  'first_at',
  'last_at',
  'joined_at',
];

/** Normalises the timestamp fields of a row from the database, leaving the rest as is. */
export function withIsoTimes<T>(row: T): T {
  const out = { ...(row as Record<string, unknown>) };
  for (const f of TIME_FIELDS) if (f in out) out[f] = isoTimeOrNull(out[f]);
  return out as T;
}
