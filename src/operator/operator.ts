/**
 * What the `cairn` command does to an install, over either way in: the database opened directly
 * (Postgres; the embedded one while no server holds it), or the /admin API of the server that
 * holds the embedded database, reached through its local admin channel (src/node/local-admin.ts).
 * Both answer in the same shapes, so the command prints the same either way.
 */

import type { PlanInput } from '../domain/limits';
import type { BlobStore, Store } from '../domain/ports';
import { adminActions } from './admin';
import { exportLines, importExport, linesOf } from './portable';

/** A running server's local admin channel (src/node/local-admin.ts writes it into admin.json). */
export interface LocalAdmin {
  /** Where this machine reaches the server: a loopback address when it listens on one. */
  url: string;
  token: string;
  pid: number;
}

type Json = Record<string, unknown>;

export interface Operator {
  createOrg(name: string): Promise<Json>;
  listOrgs(): Promise<{ orgs: { id: string; name: string }[] }>;
  createKey(orgId: string, name: string, agent: string | null): Promise<Json>;
  listKeys(orgId: string): Promise<Json>;
  revokeKey(keyId: string): Promise<Json>;
  verifyLedger(orgId: string): Promise<Json>;
  /** `password` absent: one is generated and returned once. */
  addUser(orgId: string, email: string, password: string | undefined): Promise<Json>;
  /** One org's sweep (`cairn sweep` runs it for each org asked for). */
  sweep(orgId: string, minutes: number): Promise<Json>;
  plans(): Promise<Json>;
  putPlan(plan: PlanInput): Promise<Json>;
  setOrgPlan(orgId: string, planId: string | null): Promise<Json>;
  usage(orgId: string, days: number): Promise<Json>;
  /** The org's export (NDJSON), as it is read. */
  exportOrg(orgId: string, withPrivate: boolean): AsyncIterable<Uint8Array | string>;
  /** `expectHead`: refused unless the file's ledger ends at this hash (the head its export reported). */
  importFile(orgId: string, file: AsyncIterable<Uint8Array>, expectHead?: string): Promise<Json>;
  abortImport(orgId: string): Promise<Json>;
}

/** The database itself; the ledger names the actor `cli`. */
export function directOperator(store: Store, blobs: BlobStore): Operator {
  const ops = adminActions(store, 'cli');
  return {
    createOrg: (name) => ops.createOrg(name),
    listOrgs: async () => ({ orgs: await store.admin.listOrgs() }),
    createKey: (orgId, name, agent) => ops.createKey(orgId, name, agent),
    listKeys: async (orgId) => ({ keys: await store.admin.listKeys(orgId) }),
    revokeKey: async (keyId) => ({ key: await store.admin.revokeKey(keyId, 'cli') }),
    verifyLedger: async (orgId) => ({ ...(await ops.verifyLedger(orgId)) }),
    addUser: (orgId, email, password) => ops.addUser(orgId, email, password),
    sweep: (orgId, minutes) => ops.sweep(orgId, blobs, minutes),
    plans: async () => ({ plans: await store.admin.plans() }),
    putPlan: async (plan) => ({ plan: await store.admin.putPlan(plan) }),
    setOrgPlan: async (orgId, planId) => ({ usage: await store.admin.setOrgPlan(orgId, planId) }),
    usage: async (orgId, days) => ({ usage: await store.admin.usage(orgId, days) }),
    exportOrg: (orgId, withPrivate) =>
      exportLines(store, blobs, orgId, { withPrivate, begin: (p) => store.admin.exportOrg(orgId, p, 'cli') }),
    importFile: (orgId, file, expectHead) => importExport(store, blobs, orgId, linesOf(file), { expectHead }),
    abortImport: (orgId) => ops.abortImport(orgId),
  };
}

/** The running server's /admin, with the token its data directory holds; the ledger names `cli` too. */
export function remoteOperator(server: LocalAdmin): Operator {
  const send = async (method: string, path: string, body?: unknown): Promise<Response> => {
    const stream = body !== undefined && typeof body === 'object' && body !== null && Symbol.asyncIterator in body;
    try {
      return await fetch(`${server.url}/admin${path}`, {
        method,
        headers: {
          authorization: `Bearer ${server.token}`,
          ...(body === undefined ? {} : { 'content-type': stream ? 'application/x-ndjson' : 'application/json' }),
        },
        ...(body === undefined ? {} : { body: stream ? (body as BodyInit) : JSON.stringify(body) }),
        ...(stream ? { duplex: 'half' } : {}),
      } as RequestInit);
    } catch (err) {
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? String(err);
      throw new Error(`the server at ${server.url} (process ${server.pid}) did not answer (${cause})`);
    }
  };
  const call = async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await send(method, path, body);
    const json = (await res.json().catch(() => null)) as Json | null;
    if (!res.ok || !json) {
      const message = (json?.error as { message?: string } | undefined)?.message;
      throw new Error(message ?? `the server at ${server.url} answered ${res.status}`);
    }
    return json;
  };
  const org = (id: string) => `/orgs/${encodeURIComponent(id)}`;
  return {
    createOrg: (name) => call('POST', '/orgs', { name }),
    listOrgs: async () => (await call('GET', '/orgs')) as { orgs: { id: string; name: string }[] },
    createKey: (orgId, name, agent) =>
      call('POST', `${org(orgId)}/keys`, { name, ...(agent === null ? {} : { agent }) }),
    listKeys: (orgId) => call('GET', `${org(orgId)}/keys`),
    revokeKey: (keyId) => call('DELETE', `/keys/${encodeURIComponent(keyId)}`),
    verifyLedger: (orgId) => call('GET', `${org(orgId)}/ledger/verify`),
    addUser: (orgId, email, password) =>
      call('POST', `${org(orgId)}/users`, { email, ...(password === undefined ? {} : { password }) }),
    sweep: (orgId, minutes) => call('POST', `${org(orgId)}/sweep?older_than_minutes=${minutes}`),
    plans: () => call('GET', '/plans'),
    putPlan: ({ id, ...limits }) => call('PUT', `/plans/${encodeURIComponent(id)}`, limits),
    setOrgPlan: (orgId, planId) => call('PUT', `${org(orgId)}/plan`, { plan: planId }),
    usage: (orgId, days) => call('GET', `${org(orgId)}/usage?days=${days}`),
    async *exportOrg(orgId, withPrivate) {
      const res = await send('GET', `${org(orgId)}/export${withPrivate ? '?private=true' : ''}`);
      if (!res.ok || !res.body) {
        const json = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
        throw new Error(json?.error?.message ?? `the server at ${server.url} answered ${res.status}`);
      }
      yield* res.body as unknown as AsyncIterable<Uint8Array>;
    },
    importFile: (orgId, file, expectHead) =>
      call('POST', `${org(orgId)}/import${expectHead ? `?expect_head=${expectHead}` : ''}`, file),
    abortImport: (orgId) => call('POST', `${org(orgId)}/import?abort=true`),
  };
}
