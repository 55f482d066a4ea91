/** Operator actions shared by the CLI and the admin API. */
import { uuidv7 } from '../domain/ids';
import { verifyChain } from '../domain/ledger';
import type { Store } from '../domain/ports';
import { newKey } from './keys';

const LEDGER_PAGE = 1000;

export function createOperator(store: Store, actor: string) {
  return {
    /** Creates an org with its first key; the secret is returned once and never stored. */
    async createOrg(name: string) {
      const { secret, key } = await newKey('first key');
      const r = await store.admin.createOrg(uuidv7(), name, key, actor);
      return { org: r.org, key: { ...r.key, secret } };
    },
    async createKey(orgId: string, name: string) {
      const { secret, key } = await newKey(name);
      const info = await store.admin.createKey(orgId, key, actor);
      return { key: { ...info, secret } };
    },
    verifyLedger(orgId: string) {
      return verifyChain(orgId, (after) => store.admin.ledgerPage(orgId, after, LEDGER_PAGE));
    },
  };
}
