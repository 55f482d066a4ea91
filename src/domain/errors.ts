/**
 * Typed domain errors. Domain and storage code throw these; the MCP layer maps them to tool
 * results (`isError`) or JSON-RPC errors, and `app.onError` maps them to HTTP statuses.
 */
export class CairnError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

/** Missing, malformed, wrong or revoked credential: HTTP 401. */
export class Unauthorized extends CairnError {
  constructor(message = 'missing, invalid or revoked API key: send it in the X-Svc-Key header') {
    super(message, 401);
  }
}

/** The credential is valid but the thing addressed belongs to another org: HTTP 403. */
export class Forbidden extends CairnError {
  constructor(message = 'this id belongs to another org; use a key of the org that owns it') {
    super(message, 403);
  }
}

export class NotFound extends CairnError {
  constructor(message: string) {
    super(message, 404);
  }
}

/** An argument is wrong; `field` names it. Becomes a tool result with `isError` inside MCP. */
export class Invalid extends CairnError {
  constructor(
    readonly field: string,
    /** What is wrong with it and how to fix it, without the field's name. */
    readonly reason: string,
  ) {
    super(`${field}: ${reason}`, 400);
  }
}

export class Conflict extends CairnError {
  constructor(message: string) {
    super(message, 409);
  }
}

export class LimitExceeded extends CairnError {
  constructor(
    message: string,
    status = 413,
    readonly retryAfterSeconds?: number,
  ) {
    super(message, status);
  }
}

/** What a 429 says about the limit it hit (the JSON-RPC error's `data`). */
export interface LimitInfo {
  /** `requests_per_minute`, `tool_calls_per_month`, `stored_bytes` or `auth_failures`. */
  limit: string;
  plan: string | null;
  value: number | null;
  used: number | null;
  retry_after: number;
  /** When the limit resets (ISO 8601, UTC); null for storage, which frees only when something is forgotten. */
  resets_at: string | null;
  /** The limit's window in seconds; null when it has none. */
  window: number | null;
}

/** A plan quota or rate limit reached: HTTP 429 with Retry-After and RateLimit headers. */
export class TooManyRequests extends LimitExceeded {
  constructor(
    message: string,
    readonly info: LimitInfo,
  ) {
    super(message, 429, info.retry_after);
  }
}

/** A request body that is not JSON: JSON-RPC -32700. */
export class ParseError extends CairnError {
  constructor(message = 'Parse error: the body must be a JSON-RPC message in UTF-8 JSON') {
    super(message, 400);
  }
}

/** Seconds a 503 asks the client to wait before retrying (Retry-After). */
export const RETRY_AFTER_SECONDS = 2;

/** The database or blob store could not serve the request: HTTP 503 with Retry-After. */
export class Unavailable extends CairnError {
  readonly retryAfterSeconds = RETRY_AFTER_SECONDS;
  constructor(message = 'the service is temporarily unavailable; retry shortly') {
    super(message, 503);
  }
}
