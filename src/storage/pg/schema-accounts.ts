/**
 * The tables of people rather than agents: dashboard accounts, their org memberships and
 * sessions, and the OAuth clients, grants, codes and tokens they authorise. Part of the one
 * drizzle schema (drizzle.config.ts reads both files); rows reach them only through the dashboard's and
 * OAuth's own policies (drizzle/0007, drizzle/0010).
 */
import { index, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { orgs } from './schema';

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'string' });

/** Dashboard accounts: a person who signs in with an email and a password. */
export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey(),
    /** Lower-cased. */
    email: text('email').notNull(),
    /** `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64url). */
    passwordHash: text('password_hash').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

/** Which orgs a user belongs to. */
export const memberships = pgTable(
  'memberships',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    role: text('role').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.orgId] }), index('memberships_org_idx').on(t.orgId)],
);

/**
 * Membership offered by an owner and not yet answered: the person joins when they accept it,
 * signed in with this email (docs/design.md, "Dashboard": members by invitation). One per org and
 * email; it lapses at `expires_at`.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey(),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    /** Lower-cased, as accounts' are. */
    email: text('email').notNull(),
    /** The email of the owner who invited. */
    invitedBy: text('invited_by').notNull(),
    /**
     * SHA-256 of the secret in the invitation's link, which the owner hands the invitee: accepting
     * needs it and the invited email both (emails are not verified, so the email alone is not enough).
     */
    codeHash: text('code_hash'),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [uniqueIndex('invitations_org_email_idx').on(t.orgId, t.email), index('invitations_email_idx').on(t.email)],
);

/** Signed-in browsers. Only the SHA-256 of the session token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    tokenHash: text('token_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The org the dashboard shows. */
    orgId: uuid('org_id').references(() => orgs.id, { onDelete: 'set null' }),
    /** The token every form of this session carries. */
    csrf: text('csrf').notNull(),
    createdAt: at('created_at').notNull().defaultNow(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * OAuth clients: registered dynamically (RFC 7591; id a UUID) or described by a client ID metadata
 * document (id the document's https URL; the row caches it until `expires_at`).
 */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  /** `registered` or `metadata_document`. */
  kind: text('kind').notNull(),
  name: text('name').notNull(),
  redirectUris: text('redirect_uris').array().notNull(),
  /** `none`, `client_secret_post` or `client_secret_basic`. */
  authMethod: text('auth_method').notNull(),
  /** SHA-256 of the client secret (confidential clients). */
  secretHash: text('secret_hash'),
  metadata: jsonb('metadata').notNull().default({}),
  createdAt: at('created_at').notNull().defaultNow(),
  expiresAt: at('expires_at'),
});

/** A user's consent for a client to use one org as one resource; revoking it ends its tokens. */
export const oauthGrants = pgTable(
  'oauth_grants',
  {
    id: uuid('id').primaryKey(),
    clientId: text('client_id')
      .notNull()
      .references(() => oauthClients.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orgId: uuid('org_id')
      .notNull()
      .references(() => orgs.id, { onDelete: 'cascade' }),
    resource: text('resource').notNull(),
    scope: text('scope').notNull(),
    /** The agent the grant's tokens act as, chosen at consent (null: the client, or X-Svc-Agent). */
    agent: text('agent'),
    createdAt: at('created_at').notNull().defaultNow(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
  },
  (t) => [index('oauth_grants_user_client_idx').on(t.userId, t.clientId), index('oauth_grants_org_idx').on(t.orgId)],
);

/** Authorization codes (hashed), single use, short-lived, bound to client, redirect URI and PKCE challenge. */
export const oauthCodes = pgTable('oauth_codes', {
  hash: text('hash').primaryKey(),
  grantId: uuid('grant_id')
    .notNull()
    .references(() => oauthGrants.id, { onDelete: 'cascade' }),
  redirectUri: text('redirect_uri').notNull(),
  codeChallenge: text('code_challenge').notNull(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
});

/** Access and refresh tokens (hashed). An access token's hash covers the resource it is bound to. */
export const oauthTokens = pgTable(
  'oauth_tokens',
  {
    hash: text('hash').primaryKey(),
    grantId: uuid('grant_id')
      .notNull()
      .references(() => oauthGrants.id, { onDelete: 'cascade' }),
    /** `access` or `refresh`. */
    kind: text('kind').notNull(),
    expiresAt: at('expires_at').notNull(),
    /** A refresh token once exchanged (rotation); presenting it again revokes the grant. */
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [index('oauth_tokens_grant_idx').on(t.grantId)],
);
