/**
 * The Postgres store: every operation is one statement calling a SQL function (sql/, listed with
 * its callers in docs/sql-functions.md), so a tool call costs one database round trip on any
 * driver. Works on any drizzle Postgres database (PGlite, node-postgres, Neon).
 */
import { type SQL, sql } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import type { ServicePlan, Usage } from '../../domain/limits';
import type { EmbeddingArgs, StoreOp, StoreOps } from '../../domain/operations';
import type {
  AdminStore,
  AgentDay,
  CallIdentity,
  DashboardSession,
  DashboardStore,
  EntryPage,
  FailureCount,
  Grant,
  Invitation,
  Member,
  OAuthClient,
  OAuthStore,
  Store,
  TokenOutcome,
} from '../../domain/ports';
import type { Artifact, Entry, LedgerEvent } from '../../domain/schemas';
import { type ApiKeyInfo, withIsoTimes } from '../../domain/types';
import type { Bound } from './bounds';
import { mapDbError } from './db-errors';

/** A statement's text, with `$n` placeholders, and its parameters. */
export interface Statement {
  text: string;
  params: unknown[];
  /** Whose bound it waits under (./bounds): absent, a call's. */
  bound?: Bound;
}

/** The one thing the store needs from a driver: run a statement, get rows back. */
export type Execute = (statement: Statement) => Promise<{ rows: Record<string, unknown>[] }>;

const dialect = new PgDialect();

/**
 * A tool call's statement, written once per operation: its text is the same every call, so
 * nothing is rendered per call (drizzle's rendering was a few percent of a short call's CPU).
 * `cairn_meter` counts the call and checks its limits at the end of the same statement; with a
 * vector, `cairn_vector_put` stores the entry's vector in it too.
 */
const toolStatements = (fn: string) => ({
  plain: `SELECT cairn_meter($1, ${fn}($2, $3, $4, $5::jsonb)) AS r`,
  vector: `SELECT cairn_meter($1, cairn_vector_put(${fn}($2, $3, $4, $5::jsonb), $6, $7)) AS r`,
});
const TOOL_STATEMENTS: Record<StoreOp, { plain: string; vector: string }> = {
  write: toolStatements('cairn_write'),
  plan: toolStatements('cairn_plan'),
  recall: toolStatements('cairn_recall'),
  space: toolStatements('cairn_space'),
  artifact_put: toolStatements('cairn_artifact_put'),
  artifact_get: toolStatements('cairn_artifact_get'),
  forget: toolStatements('cairn_forget'),
};

export function createPgStore(execute: Execute, close: () => Promise<void>): Store {
  async function run<T>(statement: Statement): Promise<T> {
    try {
      const { rows } = await execute(statement);
      return rows[0]?.r as T;
    } catch (err) {
      throw mapDbError(err);
    }
  }
  const one = <T>(query: SQL, bound?: Bound): Promise<T> => {
    const { sql: text, params } = dialect.sqlToQuery(query);
    return run<T>(bound ? { text, params, bound } : { text, params });
  };
  /** An operator's bulk statement: an export or import page, the sweep's keys (its own, longer bound). */
  const bulk = <T>(query: SQL) => one<T>(query, 'bulk');

  const admin: AdminStore = {
    async createOrg(id, name, key, actor) {
      const r = await one<{ org: { id: string; name: string }; key: ApiKeyInfo }>(
        sql`SELECT cairn_admin_create_org(${id}::uuid, ${name}, ${JSON.stringify(key)}::jsonb, ${actor}) AS r`,
      );
      return { org: r.org, key: withIsoTimes(r.key) };
    },
    async createKey(orgId, key, actor) {
      return withIsoTimes(
        await one<ApiKeyInfo>(
          sql`SELECT cairn_admin_create_key(${orgId}::uuid, ${JSON.stringify(key)}::jsonb, ${actor}) AS r`,
        ),
      );
    },
    async revokeKey(keyId, actor) {
      return withIsoTimes(await one<ApiKeyInfo>(sql`SELECT cairn_admin_revoke_key(${keyId}::uuid, ${actor}) AS r`));
    },
    async listKeys(orgId) {
      const keys = await one<ApiKeyInfo[]>(sql`SELECT cairn_admin_list_keys(${orgId}::uuid) AS r`);
      return keys.map((k) => withIsoTimes(k));
    },
    async listOrgs() {
      const orgs = await one<{ id: string; name: string; created_at: string }[]>(
        sql`SELECT cairn_admin_list_orgs() AS r`,
      );
      return orgs.map((o) => withIsoTimes(o));
    },
    async ledgerPage(orgId, afterSeq, limit) {
      const events = await bulk<LedgerEvent[]>(
        sql`SELECT cairn_admin_ledger(${orgId}::uuid, ${afterSeq}, ${limit}) AS r`,
      );
      return events.map((e) => withIsoTimes(e));
    },
    exportOrg(orgId, withPrivate, actor) {
      return one(sql`SELECT cairn_admin_export_org(${orgId}::uuid, ${withPrivate}, ${actor}) AS r`);
    },
    exportPage(orgId, part, after, limit, withPrivate, head) {
      return bulk(
        sql`SELECT cairn_admin_export_page(${orgId}::uuid, ${part}, ${after}, ${limit}, ${withPrivate}, ${head}) AS r`,
      );
    },
    importBegin(orgId, name, chainId) {
      return one(sql`SELECT cairn_admin_import_begin(${orgId}::uuid, ${name}, ${chainId}::uuid) AS r`);
    },
    importRows(orgId, part, rows) {
      return bulk(sql`SELECT cairn_admin_import_rows(${orgId}::uuid, ${part}, ${JSON.stringify(rows)}::jsonb) AS r`);
    },
    importEnd(orgId, head, abort) {
      return bulk(sql`SELECT cairn_admin_import_end(${orgId}::uuid, ${JSON.stringify(head)}::jsonb, ${abort}) AS r`);
    },
    addUser(orgId, userId, email, passwordHash) {
      return one(sql`SELECT cairn_admin_add_user(${orgId}::uuid, ${userId}::uuid, ${email}, ${passwordHash}) AS r`);
    },
    setupOrg: () => one<string | null>(sql`SELECT cairn_admin_setup_org() AS r`),
    async unembedded(orgId, model, afterId, limit) {
      const entries = await bulk<Entry[]>(
        sql`SELECT cairn_admin_unembedded(${orgId}::uuid, ${model}, ${afterId}::uuid, ${limit}) AS r`,
      );
      return entries.map((e) => withIsoTimes(e));
    },
    putVectors(orgId, model, items) {
      return bulk<number>(
        sql`SELECT cairn_admin_put_vectors(${orgId}::uuid, ${model}, ${JSON.stringify(items)}::jsonb) AS r`,
      );
    },
    blobKeys: (orgId) => bulk(sql`SELECT cairn_admin_blob_keys(${orgId}::uuid) AS r`),
    async plans() {
      return (await one<ServicePlan[]>(sql`SELECT cairn_admin_plans() AS r`)).map((p) => withIsoTimes(p));
    },
    async putPlan(plan) {
      return withIsoTimes(
        await one<ServicePlan>(sql`SELECT cairn_admin_plan_put(${JSON.stringify(plan)}::jsonb) AS r`),
      );
    },
    setOrgPlan: (orgId, planId) => one<Usage>(sql`SELECT cairn_admin_org_plan(${orgId}::uuid, ${planId}) AS r`),
    usage: (orgId, days) => one<Usage>(sql`SELECT cairn_admin_usage(${orgId}::uuid, ${days}) AS r`),
  };

  const dashboard: DashboardStore = {
    session: (tokenHash) => one<DashboardSession | null>(sql`SELECT cairn_dash_session(${tokenHash}) AS r`),
    async signup(userId, email, passwordHash, orgId, orgName) {
      await one(
        sql`SELECT cairn_dash_signup(${userId}::uuid, ${email}, ${passwordHash}, ${orgId}::uuid, ${orgName}) AS r`,
      );
    },
    account: (email) =>
      one<{ user_id: string; password_hash: string } | null>(sql`SELECT cairn_dash_account(${email}) AS r`),
    async setup(orgId, userId, email, passwordHash) {
      await one(sql`SELECT cairn_dash_setup(${orgId}::uuid, ${userId}::uuid, ${email}, ${passwordHash}) AS r`);
    },
    async startSession(tokenHash, userId, csrf, seconds) {
      await one(sql`SELECT cairn_dash_session_start(${tokenHash}, ${userId}::uuid, ${csrf}, ${seconds}) AS r`);
    },
    async endSession(tokenHash) {
      await one(sql`SELECT cairn_dash_session_end(${tokenHash}) AS r`);
    },
    async switchOrg(tokenHash, orgId) {
      await one(sql`SELECT cairn_dash_switch(${tokenHash}, ${orgId}::uuid) AS r`);
    },
    async createOrg(userId, orgId, name) {
      await one(sql`SELECT cairn_dash_org_create(${userId}::uuid, ${orgId}::uuid, ${name}) AS r`);
    },
    async keys(tokenHash) {
      return (await one<ApiKeyInfo[]>(sql`SELECT cairn_dash_keys(${tokenHash}) AS r`)).map((k) => withIsoTimes(k));
    },
    async createKey(tokenHash, key) {
      return withIsoTimes(
        await one<ApiKeyInfo>(sql`SELECT cairn_dash_key_create(${tokenHash}, ${JSON.stringify(key)}::jsonb) AS r`),
      );
    },
    exportOrg(tokenHash, withPrivate) {
      return one(sql`SELECT cairn_dash_export(${tokenHash}, ${withPrivate}) AS r`);
    },
    async revokeKey(tokenHash, keyId) {
      return withIsoTimes(await one<ApiKeyInfo>(sql`SELECT cairn_dash_key_revoke(${tokenHash}, ${keyId}::uuid) AS r`));
    },
    async recall(tokenHash, project, args) {
      const r = await one<{ hits: (Entry & { score: number })[] }>(
        sql`SELECT cairn_dash_recall(${tokenHash}, ${project}, ${JSON.stringify(args)}::jsonb) AS r`,
      );
      return r.hits.map((h) => withIsoTimes(h));
    },
    async entry(tokenHash, id) {
      const r = await one<EntryPage | null>(sql`SELECT cairn_dash_entry(${tokenHash}, ${id}::uuid) AS r`);
      return r
        ? {
            ...r,
            entry: withIsoTimes(r.entry),
            versions: r.versions.map((v) => withIsoTimes(v)),
            events: r.events.map((e) => withIsoTimes(e)),
          }
        : null;
    },
    async artifacts(tokenHash, limit) {
      return (await one<Artifact[]>(sql`SELECT cairn_dash_artifacts(${tokenHash}, ${limit}) AS r`)).map((a) =>
        withIsoTimes(a),
      );
    },
    async artifact(tokenHash, id) {
      const r = await one<{ artifact: Artifact; blob_key: string } | null>(
        sql`SELECT cairn_dash_artifact(${tokenHash}, ${id}::uuid) AS r`,
      );
      return r ? { artifact: withIsoTimes(r.artifact), blob_key: r.blob_key } : null;
    },
    async forget(tokenHash, id, reason) {
      await one(sql`SELECT cairn_dash_forget(${tokenHash}, ${id}::uuid, ${reason}) AS r`);
    },
    usage: (tokenHash, days) => one<Usage>(sql`SELECT cairn_dash_usage(${tokenHash}, ${days}) AS r`),
    async grants(tokenHash) {
      return (await one<Grant[]>(sql`SELECT cairn_dash_grants(${tokenHash}) AS r`)).map((g) => withIsoTimes(g));
    },
    async revokeGrant(tokenHash, grantId) {
      await one(sql`SELECT cairn_dash_grant_revoke(${tokenHash}, ${grantId}::uuid) AS r`);
    },
    async members(tokenHash) {
      return (await one<Member[]>(sql`SELECT cairn_dash_members(${tokenHash}) AS r`)).map((m) => withIsoTimes(m));
    },
    async addMember(tokenHash, email, codeHash) {
      return withIsoTimes(
        await one<{ id: string; expires_at: string }>(
          sql`SELECT cairn_dash_member_add(${tokenHash}, ${email}, ${codeHash}) AS r`,
        ),
      );
    },
    async invitation(tokenHash, invitationId, codeHash) {
      const r = await one<Invitation | null>(
        sql`SELECT cairn_dash_invitation(${tokenHash}, ${invitationId}::uuid, ${codeHash}) AS r`,
      );
      return r && withIsoTimes(r);
    },
    async cancelInvitation(tokenHash, invitationId) {
      await one(sql`SELECT cairn_dash_invitation_cancel(${tokenHash}, ${invitationId}::uuid) AS r`);
    },
    answerInvitation: (tokenHash, invitationId, accept, codeHash) =>
      one<{ org_id: string }>(
        sql`SELECT cairn_dash_invitation_answer(${tokenHash}, ${invitationId}::uuid, ${accept}, ${codeHash}) AS r`,
      ),
    async removeMember(tokenHash, userId) {
      await one(sql`SELECT cairn_dash_member_remove(${tokenHash}, ${userId}::uuid) AS r`);
    },
    activity: (tokenHash, days) => one<AgentDay[]>(sql`SELECT cairn_dash_activity(${tokenHash}, ${days}) AS r`),
    async ledger(tokenHash, filter, limit) {
      const events = await one<LedgerEvent[]>(
        sql`SELECT cairn_dash_ledger(${tokenHash}, ${filter.agent}, ${filter.op}, ${filter.before}, ${limit}) AS r`,
      );
      return events.map((e) => withIsoTimes(e));
    },
  };

  const oauth: OAuthStore = {
    async client(id) {
      const c = await one<OAuthClient | null>(sql`SELECT cairn_oauth_client_get(${id}) AS r`);
      return c && withIsoTimes(c);
    },
    async putClient(client) {
      return withIsoTimes(
        await one<OAuthClient>(sql`SELECT cairn_oauth_client_put(${JSON.stringify(client)}::jsonb) AS r`),
      );
    },
    consent: (sessionHash, clientId, resource) =>
      one(sql`SELECT cairn_oauth_consent(${sessionHash}, ${clientId}, ${resource}) AS r`),
    async approve(sessionHash, a, codeSeconds) {
      await one(
        sql`SELECT cairn_oauth_approve(${sessionHash}, ${a.clientId}, ${a.orgId}::uuid, ${a.resource}, ${a.scope}, ${a.codeHash}, ${a.redirectUri}, ${a.challenge}, ${codeSeconds}, ${a.agent}) AS r`,
      );
    },
    exchange: (a, t) =>
      one<TokenOutcome>(
        sql`SELECT cairn_oauth_exchange(${a.codeHash}, ${a.clientId}, ${a.redirectUri}, ${a.challenge}, ${a.resource}, ${t.access}, ${t.refresh}, ${t.accessSeconds}, ${t.refreshSeconds}) AS r`,
      ),
    refresh: (a, t) =>
      one<TokenOutcome>(
        sql`SELECT cairn_oauth_refresh(${a.refreshHash}, ${a.clientId}, ${a.resource}, ${t.access}, ${t.refresh}, ${t.accessSeconds}, ${t.refreshSeconds}) AS r`,
      ),
    async revoke(accessHash, refreshHash, clientId) {
      await one(sql`SELECT cairn_oauth_revoke(${accessHash}, ${refreshHash}, ${clientId}) AS r`);
    },
  };

  return {
    dashboard,
    oauth,
    call<Op extends StoreOp>(op: Op, who: CallIdentity, input: StoreOps[Op]['args']) {
      type Result = StoreOps[Op]['result'];
      // where the agent came from: cairn_agent holds a key bound to an agent to it
      const args = who.agentSource ? { ...input, agent_source: who.agentSource } : input;
      const { embedding, embedding_model, ...rest } = args as StoreOps[Op]['args'] & EmbeddingArgs;
      const statements = TOOL_STATEMENTS[op];
      if ((op === 'write' || op === 'plan') && typeof embedding === 'string') {
        return run<Result>({
          text: statements.vector,
          params: [op, who.keyHash, who.agent, who.project, JSON.stringify(rest), embedding_model, embedding],
        });
      }
      return run<Result>({
        text: statements.plain,
        params: [op, who.keyHash, who.agent, who.project, JSON.stringify(args)],
      });
    },

    whoami(keyHash, as) {
      return one<{ org_id: string }>(
        sql`SELECT cairn_meter('request', cairn_whoami(${keyHash}, ${as?.agent ?? null}, ${as?.agentSource ?? null})) AS r`,
      );
    },
    authFailure(bucket, limit, windowSeconds) {
      return one<FailureCount>(sql`SELECT cairn_auth_failure(${bucket}, ${limit}, ${windowSeconds}) AS r`);
    },
    admin,
    async ping() {
      await one(sql`SELECT 1 AS r`, 'health');
    },
    close,
  };
}

export { mapDbError } from './db-errors';
