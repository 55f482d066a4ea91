/** What the domain needs from the outside world; entry points build these into `Deps`. */
import type { ApiKeyInfo, Entry, LedgerEvent } from './types';

/** Who is calling: the key (by hash), the agent, and the canonical project if one resolved. */
export interface CallIdentity {
  keyHash: string;
  agent: string;
  project: string | null;
}

/** One operation = one database round trip, authentication and ledger included. */
export type StoreOp = 'write' | 'plan' | 'recall' | 'space' | 'artifact_put' | 'artifact_get' | 'forget';

export interface NewKey {
  id: string;
  hash: string;
  prefix: string;
  name: string;
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
  /** Entries of the org with no vector in `model`'s space, by id after `afterId`. */
  unembedded(orgId: string, model: string, afterId: string | null, limit: number): Promise<Entry[]>;
  /** Stores vectors (`[x,y,…]` text) for entries of the org; returns how many were stored. */
  putVectors(orgId: string, model: string, items: { id: string; vector: string }[]): Promise<number>;
}

export interface Store {
  call(op: StoreOp, who: CallIdentity, args: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Authenticates a key on its own (requests that carry no tool call). */
  whoami(keyHash: string): Promise<{ org_id: string }>;
  admin: AdminStore;
  /** Throws when the database does not answer. */
  ping(): Promise<void>;
  close(): Promise<void>;
  /** Set when semantic recall was asked for and this database cannot hold vectors: why not. */
  vectorsUnavailable?: string;
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
