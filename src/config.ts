/**
 * Configuration, parsed from a plain record (process.env on Node, bindings on Workers).
 * Every variable is listed in docs/configuration.md (test/docs.test.ts holds the two in step).
 *
 * PORT                    HTTP port of the Node server (default 8787)
 * HOST                    interface the Node server binds (default 127.0.0.1)
 * DATABASE_URL            Postgres URL; when absent the embedded database (PGlite) is used
 * CAIRN_DATA_DIR          where the embedded database and artifact bytes live (default ./.cairn)
 * CAIRN_DB_ROLE           role the service runs as, bound by row-level security (default cairn_app; empty: the connecting role)
 * CAIRN_WORKERS           `cairn serve` on Postgres: processes serving the port (default: the machine's cores,
 *                         os.availableParallelism()); the embedded database is served by one process, and more
 *                         than 1 there is refused (docs/design.md, "All cores")
 * CAIRN_DB_POOL_SIZE      Postgres connections the server keeps, shared among its workers: each worker's pool is
 *                         this divided by the workers, rounded up (default 10)
 * Bounded waits on Postgres (src/storage/pg/bounds.ts; docs/design.md, "Bounded waits on the database"); past
 * one, the caller gets 503 (JSON-RPC -32050, Retry-After) and /healthz 503 within 1.5 s. The embedded
 * database runs in the process, with no network to wait on: these do not apply to it.
 * CAIRN_DB_CONNECT_TIMEOUT_MS opening a connection (default 5000)
 * CAIRN_DB_STATEMENT_TIMEOUT_MS a statement's whole wait, client side: for a free pooled connection, then the
 *                         answer; the server's statement_timeout a margin shorter (default 10000; the
 *                         slowest tool's p95 at 1M entries and 16 callers is 46 ms)
 * CAIRN_DB_BULK_TIMEOUT_MS an operator's bulk statement: an export or import page, an import's last
 *                         statement, the sweep's keys, ledger and embedding pages (default 600000; 0: none)
 * CAIRN_DB_IDLE_TX_TIMEOUT_MS the server ends a session left idle inside a transaction (default 10000; 0: never)
 * CAIRN_DB_KEEPALIVE_MS   TCP keep-alive: first probe after this long idle, then 10 one second apart
 *                         (default 10000; 0: off)
 * CAIRN_ADMIN_TOKEN       enables /admin with `Authorization: Bearer <token>` (at least 16 characters); without
 *                         it, a Node server on the embedded database opens /admin only to the token of its
 *                         local admin channel, from this machine (src/node/local-admin.ts)
 * CAIRN_ALLOWED_ORIGINS   comma-separated browser origins allowed to call /mcp (default: none)
 * CAIRN_ALLOWED_HOSTS     comma-separated Host names accepted (default: localhost names when HOST is
 *                         a loopback address, else any)
 * CAIRN_MAX_BODY_BYTES    largest request body (default 8 MiB) → 413
 * CAIRN_MAX_ARTIFACT_BYTES largest artifact, decoded (default 5 MiB)
 * CAIRN_BASE_URL          public URL of the service, printed at start (default http://HOST:PORT)
 * CAIRN_SIGNUP            open (default): anyone who reaches /dashboard may create an account;
 *                         closed: accounts come from the operator (cairn user create)
 * CAIRN_AUTH_FAILURE_LIMIT failed authentications (wrong API key, wrong dashboard password) allowed
 *                         per client address per 15 minutes before 429 (default 20; 0: no limit)
 * CAIRN_CREATION_LIMIT    dashboard sign-ups and OAuth client registrations allowed per client
 *                         address per 15 minutes, each counted (default 30; 0: no limit)
 * CAIRN_OAUTH_ACCESS_TOKEN_SECONDS  lifetime of an OAuth access token (default 3600)
 * CAIRN_OAUTH_REFRESH_TOKEN_SECONDS lifetime of an OAuth refresh token (default 30 days); each use replaces it
 * CAIRN_CLIENT_ADDRESS_HEADER Node behind a reverse proxy: the header in which the proxy puts the
 *                         client's address (e.g. X-Forwarded-For: its last address is used); on
 *                         Workers the address is CF-Connecting-IP
 * CAIRN_NEON_HTTP_ENDPOINT Workers only: SQL-over-HTTP endpoint for Neon's driver (local development; read by
 *                         src/worker.ts, not parsed here)
 * CAIRN_EMBEDDINGS        semantic recall: off (default) | openai (an OpenAI-compatible endpoint) |
 *                         workers-ai (the Workers AI binding AI; Workers only)
 * CAIRN_EMBEDDINGS_URL    base URL of the OpenAI-compatible endpoint (default https://api.openai.com/v1)
 * CAIRN_EMBEDDINGS_KEY    its bearer token
 * CAIRN_EMBEDDINGS_MODEL  model (default text-embedding-3-small; @cf/baai/bge-base-en-v1.5 on workers-ai)
 * CAIRN_EMBEDDINGS_DIMENSIONS vector size, at most 2000 (default: the model's, for the models listed
 *                         in docs/configuration.md; required for others)
 * CAIRN_EMBEDDINGS_TIMEOUT_MS longest wait for an embedding before a call goes on without it (default 3000)
 */
import { z } from 'zod';
import type { EmbeddingsConfig } from './embeddings/index';
import { OPENAI_MODELS } from './embeddings/openai';
import { WORKERS_AI_MODELS } from './embeddings/workers-ai';
import { type DbBounds, DEFAULT_BOUNDS } from './storage/pg/bounds';

const MiB = 1024 * 1024;
const list = z
  .string()
  .optional()
  .transform((s) =>
    (s ?? '')
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean),
  );

/** Milliseconds, a whole number in [min, max]. */
const ms = (min: number, max: number) => z.coerce.number().int().min(min).max(max);

const schema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  HOST: z.string().default('127.0.0.1'),
  DATABASE_URL: z
    .string()
    .url()
    .optional()
    .or(z.literal('').transform(() => undefined)),
  CAIRN_DATA_DIR: z.string().default('./.cairn'),
  CAIRN_DB_ROLE: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$|^$/)
    .default('cairn_app'),
  CAIRN_WORKERS: z.coerce.number().int().min(1).max(1024).optional(),
  CAIRN_DB_POOL_SIZE: z.coerce.number().int().min(1).max(1000).default(10),
  CAIRN_DB_CONNECT_TIMEOUT_MS: ms(100, 600_000).default(DEFAULT_BOUNDS.connectMs),
  CAIRN_DB_STATEMENT_TIMEOUT_MS: ms(100, 3_600_000).default(DEFAULT_BOUNDS.statementMs),
  CAIRN_DB_BULK_TIMEOUT_MS: ms(0, 86_400_000).default(DEFAULT_BOUNDS.bulkStatementMs),
  CAIRN_DB_IDLE_TX_TIMEOUT_MS: ms(0, 86_400_000).default(DEFAULT_BOUNDS.idleTxMs),
  CAIRN_DB_KEEPALIVE_MS: ms(0, 3_600_000).default(DEFAULT_BOUNDS.keepAliveMs),
  CAIRN_ADMIN_TOKEN: z.string().min(16, 'CAIRN_ADMIN_TOKEN must be at least 16 characters').optional(),
  CAIRN_ALLOWED_ORIGINS: list,
  CAIRN_ALLOWED_HOSTS: list,
  CAIRN_MAX_BODY_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(8 * MiB),
  CAIRN_MAX_ARTIFACT_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(5 * MiB),
  CAIRN_BASE_URL: z.string().url().optional(),
  CAIRN_SIGNUP: z.enum(['open', 'closed']).default('open'),
  CAIRN_AUTH_FAILURE_LIMIT: z.coerce.number().int().min(0).max(100_000).default(20),
  CAIRN_CREATION_LIMIT: z.coerce.number().int().min(0).max(100_000).default(30),
  CAIRN_OAUTH_ACCESS_TOKEN_SECONDS: z.coerce.number().int().min(1).max(86_400).default(3600),
  CAIRN_OAUTH_REFRESH_TOKEN_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(365 * 86_400)
    .default(30 * 86_400),
  CAIRN_CLIENT_ADDRESS_HEADER: z
    .string()
    .regex(/^[A-Za-z0-9-]+$/, 'a header name such as X-Forwarded-For')
    .optional(),
  CAIRN_EMBEDDINGS: z.enum(['off', 'openai', 'workers-ai']).default('off'),
  CAIRN_EMBEDDINGS_URL: z.string().url().default('https://api.openai.com/v1'),
  CAIRN_EMBEDDINGS_KEY: z.string().optional(),
  CAIRN_EMBEDDINGS_MODEL: z.string().min(1).max(200).optional(),
  CAIRN_EMBEDDINGS_DIMENSIONS: z.coerce
    .number()
    .int()
    .min(1)
    .max(
      2000,
      'at most 2000 (the largest vector an HNSW index takes); models such as text-embedding-3-large can be asked for fewer',
    )
    .optional(),
  CAIRN_EMBEDDINGS_TIMEOUT_MS: z.coerce.number().int().min(50).max(60_000).default(3000),
});

/** The variables read here, by name (docs/configuration.md lists each; test/docs.test.ts holds the two equal). */
export const CONFIG_VARIABLES: readonly string[] = Object.keys(schema.shape);

export interface Config {
  port: number;
  host: string;
  databaseUrl: string | undefined;
  dataDir: string;
  dbRole: string;
  /** Processes `cairn serve` runs, as configured (undefined: the default, see src/node/serve.ts). */
  workers: number | undefined;
  /** Postgres connections of the whole server, shared among its workers. */
  dbPoolSize: number;
  /** Bounded waits on Postgres (node-postgres and Neon's HTTP driver). */
  dbBounds: DbBounds;
  adminToken: string | undefined;
  allowedOrigins: string[];
  /** null: any Host is accepted. */
  allowedHosts: string[] | null;
  /**
   * Whether, without CAIRN_BASE_URL, a request's Host may name the OAuth issuer: when the Host is
   * checked against a list, or on Workers, whose platform routes only the owner's host names.
   */
  issuerFromHost: boolean;
  maxBodyBytes: number;
  maxArtifactBytes: number;
  baseUrl: string;
  /** CAIRN_BASE_URL when set: where clients reach the service (else pages use the request's origin). */
  publicUrl: string | undefined;
  version: string;
  /** null: semantic recall is off. */
  embeddings: EmbeddingsConfig | null;
  /** Whether anyone may create a dashboard account. */
  signupOpen: boolean;
  /** Failed authentications per client address per 15 minutes; 0: no limit. */
  authFailureLimit: number;
  /** Sign-ups and OAuth client registrations per client address per 15 minutes; 0: no limit. */
  creationLimit: number;
  oauth: { accessSeconds: number; refreshSeconds: number };
  /** Lower-case header name carrying the client address (set by a trusted proxy), if any. */
  clientAddressHeader: string | undefined;
}

export const VERSION = '0.1.0';
const LOOPBACK = ['127.0.0.1', 'localhost', '::1'];

/**
 * `bindsHost: false` (Workers): the platform owns the listening side, so Host names are checked
 * only when CAIRN_ALLOWED_HOSTS lists them.
 */
export function parseConfig(env: Record<string, unknown>, opts: { bindsHost?: boolean } = {}): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => typeof v === 'string' && v !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`configuration: ${issue?.path.join('.')}: ${issue?.message}`);
  }
  const c = parsed.data;
  const allowedHosts = c.CAIRN_ALLOWED_HOSTS.length
    ? c.CAIRN_ALLOWED_HOSTS
    : opts.bindsHost !== false && LOOPBACK.includes(c.HOST)
      ? ['localhost', '127.0.0.1', '[::1]']
      : null;
  return {
    port: c.PORT,
    host: c.HOST,
    databaseUrl: c.DATABASE_URL,
    dataDir: c.CAIRN_DATA_DIR,
    dbRole: c.CAIRN_DB_ROLE,
    workers: c.CAIRN_WORKERS,
    dbPoolSize: c.CAIRN_DB_POOL_SIZE,
    dbBounds: {
      connectMs: c.CAIRN_DB_CONNECT_TIMEOUT_MS,
      statementMs: c.CAIRN_DB_STATEMENT_TIMEOUT_MS,
      bulkStatementMs: c.CAIRN_DB_BULK_TIMEOUT_MS,
      idleTxMs: c.CAIRN_DB_IDLE_TX_TIMEOUT_MS,
      keepAliveMs: c.CAIRN_DB_KEEPALIVE_MS,
    },
    adminToken: c.CAIRN_ADMIN_TOKEN,
    allowedOrigins: c.CAIRN_ALLOWED_ORIGINS,
    allowedHosts,
    issuerFromHost: allowedHosts !== null || opts.bindsHost === false,
    maxBodyBytes: c.CAIRN_MAX_BODY_BYTES,
    maxArtifactBytes: c.CAIRN_MAX_ARTIFACT_BYTES,
    baseUrl: c.CAIRN_BASE_URL ?? `http://${c.HOST.includes(':') ? `[${c.HOST}]` : c.HOST}:${c.PORT}`,
    publicUrl: c.CAIRN_BASE_URL,
    version: VERSION,
    embeddings: embeddingsConfig(c),
    signupOpen: c.CAIRN_SIGNUP === 'open',
    authFailureLimit: c.CAIRN_AUTH_FAILURE_LIMIT,
    creationLimit: c.CAIRN_CREATION_LIMIT,
    clientAddressHeader: c.CAIRN_CLIENT_ADDRESS_HEADER?.toLowerCase(),
    oauth: {
      accessSeconds: c.CAIRN_OAUTH_ACCESS_TOKEN_SECONDS,
      refreshSeconds: c.CAIRN_OAUTH_REFRESH_TOKEN_SECONDS,
    },
  };
}

function embeddingsConfig(c: z.output<typeof schema>): EmbeddingsConfig | null {
  if (c.CAIRN_EMBEDDINGS === 'off') return null;
  const known = c.CAIRN_EMBEDDINGS === 'openai' ? OPENAI_MODELS : WORKERS_AI_MODELS;
  const model =
    c.CAIRN_EMBEDDINGS_MODEL ??
    (c.CAIRN_EMBEDDINGS === 'openai' ? 'text-embedding-3-small' : '@cf/baai/bge-base-en-v1.5');
  const native = known[model];
  if (c.CAIRN_EMBEDDINGS === 'workers-ai' && native === undefined) {
    throw new Error(
      `configuration: CAIRN_EMBEDDINGS_MODEL: Workers AI embedding models are ${Object.keys(WORKERS_AI_MODELS).join(', ')}`,
    );
  }
  const dimensions = c.CAIRN_EMBEDDINGS_DIMENSIONS ?? native;
  if (dimensions === undefined) {
    throw new Error(
      `configuration: CAIRN_EMBEDDINGS_DIMENSIONS: required for model ${model} (the size of its vectors)`,
    );
  }
  if (dimensions > 2000) {
    throw new Error(
      `configuration: CAIRN_EMBEDDINGS_DIMENSIONS: ${model} makes ${dimensions} dimensions, more than an HNSW index takes (2000); set CAIRN_EMBEDDINGS_DIMENSIONS to 2000 or fewer`,
    );
  }
  if (c.CAIRN_EMBEDDINGS === 'workers-ai') {
    if (dimensions !== native) {
      throw new Error(`configuration: CAIRN_EMBEDDINGS_DIMENSIONS: ${model} makes ${native} dimensions`);
    }
    return { provider: 'workers-ai', model, dimensions, timeoutMs: c.CAIRN_EMBEDDINGS_TIMEOUT_MS };
  }
  return {
    provider: 'openai',
    url: c.CAIRN_EMBEDDINGS_URL,
    key: c.CAIRN_EMBEDDINGS_KEY,
    model,
    dimensions,
    sendDimensions: native !== undefined && dimensions !== native,
    timeoutMs: c.CAIRN_EMBEDDINGS_TIMEOUT_MS,
  };
}
