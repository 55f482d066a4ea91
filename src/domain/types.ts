/** Shapes the service returns that are not the tools' (those are inferred in schemas.ts), and their times. */
export interface ApiKeyInfo {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  /** The agent the key is bound to (it acts as that agent only), or null. */
  agent: string | null;
  created_by: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** `YYYY-MM-DDTHH:MM:SS[.fraction]+00:00`: how Postgres writes a time in JSON when its session is in UTC. */
const UTC_JSON = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.(\d{1,6}))?\+00:00$/;

/**
 * Timestamps come back from the database in its session time zone; return them in UTC ISO form
 * (milliseconds, cut as `Date` cuts them). A time already in UTC is rewritten as text, which costs
 * a tenth of parsing it into a `Date` (most databases run in UTC, and a call returns many times).
 */
export function isoTime(value: unknown): string {
  const text = String(value);
  const utc = UTC_JSON.exec(text);
  if (!utc) return new Date(text).toISOString();
  return `${text.slice(0, 19)}.${`${utc[1] ?? ''}000`.slice(0, 3)}Z`;
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
