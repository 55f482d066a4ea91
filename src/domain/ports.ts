/** What the domain needs from the outside world; entry points build these into `Deps`. */
import type { PlanInput, ServicePlan, Usage } from './limits';
import type { StoreOp, StoreOps } from './operations';
import type { Artifact, Entry, LedgerEvent } from './schemas';
import type { ApiKeyInfo } from './types';

/** Where the server took a call's agent from: X-Svc-Agent, the OAuth client, or the default. */
export type AgentSource = 'header' | 'client' | 'default';

/** Who is calling: the key (by hash), the agent, and the canonical project if one resolved. */
export interface CallIdentity {
  keyHash: string;
  agent: string;
  project: string | null;
  /** Absent: as from a header. A key bound to an agent overrides all but a differing header (cairn_agent). */
  agentSource?: AgentSource;
}

export interface NewKey {
  id: string;
  hash: string;
  prefix: string;
  name: string;
  /** The agent the key acts as, only (contract §5, "Agent-bound keys"); null: any, by header. */
  agent: string | null;
}

export interface OrgInfo {
  id: string;
  name: string;
  created_at?: string;
}

export interface AdminStore {
  createOrg(id: string, name: string, key: NewKey, actor: string): Promise<{ org: OrgInfo; key: ApiKeyInfo }>;
  createKey(orgId: string, key: NewKey, actor: string): Promise<ApiKeyInfo>;
  revokeKey(keyId: string, actor: string): Promise<ApiKeyInfo>;
  listKeys(orgId: string): Promise<ApiKeyInfo[]>;
  listOrgs(): Promise<OrgInfo[]>;
  ledgerPage(orgId: string, afterSeq: number, limit: number): Promise<LedgerEvent[]>;
  /** A dashboard account owning the org (an existing account keeps its password and joins). */
  addUser(
    orgId: string,
    userId: string,
    email: string,
    passwordHash: string,
  ): Promise<{ user_id: string; email: string; org_id: string; created: boolean }>;
  /** First start: the install's first org, `default`, while nobody belongs to it; else null. */
  setupOrg(): Promise<string | null>;
  /** Entries of the org with no vector in `model`'s space, by id after `afterId`. */
  unembedded(orgId: string, model: string, afterId: string | null, limit: number): Promise<Entry[]>;
  /** Stores vectors (`[x,y,…]` text) for entries of the org; returns how many were stored. */
  putVectors(orgId: string, model: string, items: { id: string; vector: string }[]): Promise<number>;
  /** The org's artifacts and the blob key each names (for the sweep). */
  blobKeys(orgId: string): Promise<{ id: string; blob_key: string }[]>;
  plans(): Promise<ServicePlan[]>;
  /** Creates or replaces a plan. */
  putPlan(plan: PlanInput): Promise<ServicePlan>;
  /** Puts an org on a plan; null: back on the default plan. Returns its usage. */
  setOrgPlan(orgId: string, planId: string | null): Promise<Usage>;
  /** An org's plan and use, with `days` days of history. */
  usage(orgId: string, days: number): Promise<Usage>;
  /** Export and import (src/operator/portable.ts; docs/design.md, "Export and import"). */
  exportOrg(orgId: string, withPrivate: boolean, actor: string): Promise<ExportHead>;
  exportPage(
    orgId: string,
    part: ExportPart,
    after: string | null,
    limit: number,
    withPrivate: boolean,
    head: number,
  ): Promise<Record<string, unknown>[]>;
  importBegin(orgId: string, name: string, chainId: string): Promise<{ org: OrgInfo }>;
  importRows(orgId: string, part: ExportPart, rows: Record<string, unknown>[]): Promise<number>;
  /** Ends an import: done at `head`, or aborted (what it stored deleted; the caller deletes the bytes it wrote). */
  importEnd(orgId: string, head: { seq: number; hash: string }, abort: boolean): Promise<{ events: number }>;
}

/** The parts of an export, in the order the file holds them. */
export type ExportPart = 'project' | 'entry' | 'version' | 'artifact' | 'event';

/** What an export starts from: the org, the id its ledger's hashes cover, and the ledger's head. */
export interface ExportHead {
  org: { id: string; name: string; created_at: string };
  chain_id: string;
  head: { seq: number; hash: string };
}

/** A signed-in dashboard session: the user, their orgs, the org shown and the forms' token. */
export interface DashboardSession {
  user_id: string;
  email: string;
  org_id: string | null;
  csrf: string;
  /** owner: the org's first owner's email (pickers tell apart orgs of one name by it and the id). */
  orgs: { id: string; name: string; role: string; owner: string | null }[];
}

/** An invitation to an org, as the one who opened its link sees it. */
export interface Invitation {
  id: string;
  org_id: string;
  org_name: string;
  invited_by: string;
  /** The email it is for, and whether it is the signed-in account's. */
  email: string;
  yours: boolean;
  expires_at: string;
}

/** A member of the org, or (role `invited`) an invitation not yet answered. */
export interface Member {
  /** null for an invitation */
  user_id: string | null;
  email: string;
  role: 'owner' | 'member' | 'invited';
  /** When they joined, or when the invitation was sent. */
  joined_at: string;
  invitation_id?: string;
  invited_by?: string;
  expires_at?: string;
}

export interface EntryPage {
  entry: Entry;
  /** Who made the last update and what it changed (a plan's), when it was updated. */
  updated_by: string | null;
  last_change: string | null;
  /** Along the supersede chain, or for a plan its versions kept as it was updated in place (`kept`). */
  versions: {
    id: string;
    created_at: string;
    agent: string;
    version: number;
    current: boolean;
    kept?: boolean;
    content: string;
  }[];
  /** Of an org entry, the projects that replaced it for themselves only, and by what. */
  replaced_in: { project: string; id: string }[];
  events: LedgerEvent[];
}

/** One agent's ledger events on one UTC day (`YYYY-MM-DD`). */
export interface AgentDay {
  agent: string;
  day: string;
  events: number;
}

/** The dashboard's accounts and the org actions it offers; sessions are named by their token's hash. */
export interface DashboardStore {
  session(tokenHash: string): Promise<DashboardSession | null>;
  signup(userId: string, email: string, passwordHash: string, orgId: string, orgName: string): Promise<void>;
  account(email: string): Promise<{ user_id: string; password_hash: string } | null>;
  /**
   * The setup link's account becomes the owner of the org that has none: a new account, or
   * (`passwordHash` null) the existing `userId` whose password was checked. Conflict once it has one.
   */
  setup(orgId: string, userId: string, email: string, passwordHash: string | null): Promise<void>;
  startSession(tokenHash: string, userId: string, csrf: string, seconds: number): Promise<void>;
  endSession(tokenHash: string): Promise<void>;
  switchOrg(tokenHash: string, orgId: string): Promise<void>;
  createOrg(userId: string, orgId: string, name: string): Promise<void>;
  keys(tokenHash: string): Promise<ApiKeyInfo[]>;
  createKey(tokenHash: string, key: NewKey): Promise<ApiKeyInfo>;
  revokeKey(tokenHash: string, keyId: string): Promise<ApiKeyInfo>;
  /** How the session org's export starts (an owner's only; private notes recorded as the owner's choice). */
  exportOrg(tokenHash: string, withPrivate: boolean): Promise<ExportHead>;
  /** The recall ranking over the session's org, as a reader who sees no agent's private entries. */
  recall(
    tokenHash: string,
    project: string | null,
    args: Record<string, unknown>,
  ): Promise<(Entry & { score: number })[]>;
  /** An entry's page: the entry, its versions oldest first, its ledger events; null if not shown. */
  entry(tokenHash: string, id: string): Promise<EntryPage | null>;
  /** Forgets one shown entry, the ledger naming the user and keeping the reason. */
  forget(tokenHash: string, id: string, reason: string): Promise<void>;
  /** The session org's shared artifacts, newest first. */
  artifacts(tokenHash: string, limit: number): Promise<Artifact[]>;
  /** One shared artifact of the session's org and the key of its bytes; null if there is none. */
  artifact(tokenHash: string, id: string): Promise<{ artifact: Artifact; blob_key: string } | null>;
  /** The session org's members, owners first, then its open invitations. */
  members(tokenHash: string): Promise<Member[]>;
  /**
   * An owner invites an email (the same answer whether or not an account has it); `codeHash`: the
   * hash of the secret in the link the owner hands over. Its id, and until when it holds.
   */
  addMember(tokenHash: string, email: string, codeHash: string): Promise<{ id: string; expires_at: string }>;
  /** The invitation a link names, if its secret matches and it holds. */
  invitation(tokenHash: string, invitationId: string, codeHash: string): Promise<Invitation | null>;
  /** An owner takes back an open invitation. */
  cancelInvitation(tokenHash: string, invitationId: string): Promise<void>;
  /** The signed-in invitee, with the link's secret, accepts (joins, and is shown the org) or declines. */
  answerInvitation(
    tokenHash: string,
    invitationId: string,
    accept: boolean,
    codeHash: string,
  ): Promise<{ org_id: string }>;
  /** An owner removes a member (the org keeps an owner). */
  removeMember(tokenHash: string, userId: string): Promise<void>;
  /** The session org's OAuth grants, newest first. */
  grants(tokenHash: string): Promise<Grant[]>;
  /** Revokes one of the session org's grants: its tokens stop working at once. */
  revokeGrant(tokenHash: string, grantId: string): Promise<void>;
  /** The session org's plan and use, with `days` days of history. */
  usage(tokenHash: string, days: number): Promise<Usage>;
  /** The session org's events per agent per UTC day, the last `days` days, oldest first (no private ones). */
  activity(tokenHash: string, days: number): Promise<AgentDay[]>;
  /** The session org's ledger, newest first. */
  ledger(
    tokenHash: string,
    filter: { agent: string | null; op: string | null; before: number | null },
    limit: number,
  ): Promise<LedgerEvent[]>;
}

/** An outcome of the token endpoint: tokens were stored, or why not (RFC 6749 §5.2). */
export type TokenOutcome = { scope: string; client_id: string } | { error: string; error_description: string };

/** How an OAuth client proves itself at the token endpoint (RFC 7591 `token_endpoint_auth_method`). */
export type AuthMethod = 'none' | 'client_secret_post' | 'client_secret_basic';

/** An OAuth client: registered dynamically, or described by its client ID metadata document (cached until `expires_at`). */
export interface OAuthClient {
  id: string;
  kind: 'registered' | 'metadata_document';
  name: string;
  redirect_uris: string[];
  auth_method: AuthMethod;
  secret_hash: string | null;
  metadata: Record<string, unknown>;
  expires_at: string | null;
}

/** The OAuth authorization server's records; codes and tokens by hash (src/oauth). */
export interface OAuthStore {
  client(id: string): Promise<OAuthClient | null>;
  /** Registers a client, or refreshes a metadata document's cached copy. */
  putClient(client: OAuthClient): Promise<OAuthClient>;
  /** The signed-in user's standing consent for the client at the resource, if any. */
  consent(
    sessionHash: string,
    clientId: string,
    resource: string,
  ): Promise<{ grant_id: string; org_id: string; agent: string | null } | null>;
  /** Records the user's consent (or reuses it) and a code for it. */
  approve(
    sessionHash: string,
    a: {
      clientId: string;
      orgId: string;
      resource: string;
      scope: string;
      codeHash: string;
      redirectUri: string;
      challenge: string;
      /** The agent the grant's tokens act as (bound at consent), or null. */
      agent: string | null;
    },
    codeSeconds: number,
  ): Promise<void>;
  exchange(
    a: { codeHash: string; clientId: string; redirectUri: string; challenge: string; resource: string },
    t: TokenHashes,
  ): Promise<TokenOutcome>;
  refresh(a: { refreshHash: string; clientId: string; resource: string }, t: TokenHashes): Promise<TokenOutcome>;
  revoke(accessHash: string, refreshHash: string, clientId: string): Promise<void>;
}

export interface TokenHashes {
  access: string;
  refresh: string;
  accessSeconds: number;
  refreshSeconds: number;
}

/** An OAuth grant, as Settings → Connected apps lists it. */
export interface Grant {
  id: string;
  client_id: string;
  client_name: string;
  /** The agent its tokens act as, when bound at consent. */
  agent: string | null;
  user: string;
  scope: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

export interface Store {
  /** One operation = one database round trip, authentication and ledger included. */
  call<Op extends StoreOp>(op: Op, who: CallIdentity, args: StoreOps[Op]['args']): Promise<StoreOps[Op]['result']>;
  /**
   * Authenticates a key on its own (requests that carry no tool call), within its key's rate; with
   * `as`, also whether it may act as that agent (a key bound to another is refused, 403).
   */
  whoami(keyHash: string, as?: { agent: string; agentSource: AgentSource }): Promise<{ org_id: string }>;
  /**
   * Records a failed authentication in `bucket` (door and client address): `limit` failures in a
   * row, then one per `windowSeconds / limit`. Says whether this one was over the limit, whether
   * the next will be, and in how many seconds one will be allowed.
   */
  authFailure(bucket: string, limit: number, windowSeconds: number): Promise<FailureCount>;
  admin: AdminStore;
  dashboard: DashboardStore;
  oauth: OAuthStore;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Set when semantic recall was asked for and this database cannot hold vectors: why not. */
  vectorsUnavailable?: string;
  /** What opening the store migrated: versioned migrations (tags) and function files (paths). */
  migrated?: { migrations: string[]; functions: string[] };
  /**
   * Where the service keeps its own database (Node): VACUUM (ANALYZE) of the tables that grew
   * since their last one, now; says which. It also runs on a timer.
   */
  maintain?: () => Promise<string[]>;
}

export interface FailureCount {
  refused: boolean;
  blocked: boolean;
  retry_after: number;
}

/** Semantic recall's view of an embedding provider: a vector, or null when a call goes without. */
export interface Semantic {
  /** The vector space (model) the vectors belong to. */
  readonly model: string;
  vectorOf(text: string): Promise<number[] | null>;
}

/** Artifact bytes. Keys are chosen by the service (`<org id>/<artifact id>`), never by callers. */
export interface BlobStore {
  put(key: string, bytes: Uint8Array, contentType: string): Promise<void>;
  get(key: string): Promise<Uint8Array | null>;
  delete(keys: string[]): Promise<void>;
  list(prefix: string): Promise<string[]>;
}
