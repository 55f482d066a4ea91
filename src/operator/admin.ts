/**
 * The installation's administration: what its operator does, from the CLI (`cairn org create`,
 * `cairn user create`, `cairn sweep`, …) or over the /admin API (src/http/admin.ts) — orgs, keys
 * and accounts made, orphaned bytes swept, ledgers verified, missing vectors filled in.
 */
import { hashPassword, normaliseEmail, PASSWORD_RULE, passwordOk } from '../auth/accounts';
import { newKey } from '../auth/keys';
import { agentName } from '../domain/agents';
import { randomToken } from '../domain/crypto';
import { Invalid } from '../domain/errors';
import { UUID_RE, uuidv7 } from '../domain/ids';
import { verifyChain } from '../domain/ledger';
import { embeddingText, vectorLiteral } from '../domain/memory';
import type { BlobStore, Store } from '../domain/ports';
import { type Embedder, spaceName } from '../embeddings/provider';

const LEDGER_PAGE = 1000;
const EMBED_PAGE = 64;

/** The operator's actions on the store, recorded in ledgers as `actor` (`cli`, `admin-api`). */
export function adminActions(store: Store, actor: string) {
  return {
    actor,
    /** Creates an org with its first key; the secret is returned once and never stored. */
    async createOrg(name: string) {
      const { secret, key } = await newKey('first key');
      const r = await store.admin.createOrg(uuidv7(), name, key, actor);
      return { org: r.org, key: { ...r.key, secret } };
    },
    /** `agent`: bind the key to that agent (it acts as that agent only). */
    async createKey(orgId: string, name: string, agent: string | null = null) {
      const { secret, key } = await newKey(name, agentName(agent, 'agent'));
      const info = await store.admin.createKey(orgId, key, actor);
      return { key: { ...info, secret } };
    },
    /**
     * A dashboard account that owns the org (self-hosted installs, whose first org the CLI made).
     * Without a password one is generated and returned once.
     */
    async addUser(orgId: string, emailInput: string, password?: string) {
      const email = normaliseEmail(emailInput);
      if (!email) throw new Invalid('email', 'not an email address');
      const chosen = password ?? randomToken(12);
      if (!passwordOk(chosen)) throw new Invalid('password', `choose ${PASSWORD_RULE}`);
      const user = await store.admin.addUser(orgId, uuidv7(), email, await hashPassword(chosen));
      return { user, ...(password === undefined && user.created ? { password: chosen } : {}) };
    },
    /**
     * The sweep: bytes in the blob store that no artifact names (an upload whose row was never
     * written, bytes a forget could not delete) are deleted once older than `minutes` (an upload
     * in flight writes its bytes before its row); artifacts whose bytes are missing are reported.
     */
    async sweep(orgId: string, blobs: BlobStore, minutes = 60, now = Date.now()) {
      const rows = await store.admin.blobKeys(orgId);
      const named = new Set(rows.map((r) => r.blob_key));
      const stored = await blobs.list(`${orgId}/`);
      const orphans = stored.filter((k) => !named.has(k));
      const old = orphans.filter((k) => {
        const id = k.split('/').at(-1) ?? '';
        // the key's last part is the artifact's UUIDv7, whose first 48 bits are its time in ms
        return !UUID_RE.test(id) || Number.parseInt(id.replaceAll('-', '').slice(0, 12), 16) < now - minutes * 60_000;
      });
      await blobs.delete(old);
      const present = new Set(stored);
      return {
        org_id: orgId,
        blobs: stored.length,
        deleted: old,
        kept_recent: orphans.length - old.length,
        missing_bytes: rows.filter((r) => !present.has(r.blob_key)).map((r) => r.id),
      };
    },
    /**
     * Undoes an import that was cut off (its process stopped part way): what it stored is deleted,
     * with the org when the import made it, else the org's writes resume. Bytes it had written are
     * left for `cairn sweep`.
     */
    async abortImport(orgId: string) {
      await store.admin.importEnd(orgId, { seq: 0, hash: '' }, true);
      return { ok: true, aborted: orgId };
    },
    async verifyLedger(orgId: string) {
      const { chain_id } = await store.admin.exportOrg(orgId, false, actor);
      return verifyChain(chain_id, (after) => store.admin.ledgerPage(orgId, after, LEDGER_PAGE));
    },
    /**
     * Gives every entry of the org that has none a vector (semantic recall switched on for an
     * existing memory), a page at a time; a provider failure stops it, and a rerun goes on from
     * where it stopped.
     */
    async embedMissing(orgId: string, embedder: Embedder) {
      const model = spaceName(embedder.model, embedder.dimensions);
      let embedded = 0;
      let after: string | null = null;
      for (;;) {
        const page = await store.admin.unembedded(orgId, model, after, EMBED_PAGE);
        if (page.length === 0) return { org_id: orgId, embedded };
        const texts = page.map((e) => embeddingText(e) || e.content);
        const vectors = await embedder.embed(texts, AbortSignal.timeout(60_000));
        embedded += await store.admin.putVectors(
          orgId,
          model,
          page.map((e, i) => ({ id: e.id, vector: vectorLiteral(vectors[i] as number[]) })),
        );
        after = (page[page.length - 1] as { id: string }).id;
      }
    },
  };
}
