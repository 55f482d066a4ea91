/**
 * The ledger's hash chain: hash = SHA-256(prev_hash ‖ canonical event), where the canonical event
 * is each field length-prefixed (`<utf8 length>:<text>`), then, each only on an event that has it,
 * `verified` (its agent came from its credential), `actor:<kind>` (who acted, recorded since
 * drizzle/0032) and a private event's salt. The database computes it on append
 * (cairn_ledger_hash); this module recomputes it independently to verify a chain.
 */
import { sha256Hex, utf8Length } from './crypto';
import type { LedgerEvent } from './schemas';

export const GENESIS_HASH = '0'.repeat(64);

/** An event as the verifier reads it: with a private event's salt (`ledger.salt`), which readers never see. */
export type VerifiableEvent = LedgerEvent & { salt?: string | null };

export function canonicalEvent(orgId: string, e: VerifiableEvent): string {
  const fields = [
    String(e.seq),
    orgId,
    String(new Date(e.at).getTime()),
    e.agent,
    e.op,
    e.entry_id ?? '',
    e.project ?? '',
    e.content_sha256 ?? '',
    e.reason ?? '',
    // only a verified event has the tenth field: older and unverified events keep their form
    ...(e.verified ? ['verified'] : []),
    // who acted: events recorded before the kind was have none
    ...(e.actor_kind ? [`actor:${e.actor_kind}`] : []),
    // a private event's secret, last: events without one keep their form
    ...(e.salt ? [e.salt] : []),
  ];
  return fields.map((f) => `${utf8Length(f)}:${f}`).join('');
}

export interface VerifyResult {
  ok: boolean;
  events: number;
  /** seq of the first event whose link or hash does not hold, or null. */
  broken_at: number | null;
  /**
   * Events whose content an export left out (private notes exported without the owner's choice,
   * and events an import received that way): only their links are checked. Absent when none.
   */
  sealed?: number;
}

/** An event without its content: its place in the chain and its hashes only. */
export interface SealedEvent {
  seq: number;
  sealed: true;
  prev_hash: string;
  hash: string;
}

const isSealed = (e: VerifiableEvent | SealedEvent): e is SealedEvent =>
  ('sealed' in e && e.sealed === true) || (e as LedgerEvent).op === 'sealed';

/**
 * Checks a chain one event at a time, in seq order: `add` returns false at the first event whose
 * number, link or hash does not hold. `chainId` is the org id the hashes cover (an imported org's
 * is the id its chain was started under).
 */
export class ChainCheck {
  private prev = GENESIS_HASH;
  seq = 0;
  sealed = 0;
  broken: number | null = null;
  constructor(private readonly chainId: string) {}

  async add(e: VerifiableEvent | SealedEvent): Promise<boolean> {
    if (this.broken !== null) return false;
    const hash = isSealed(e) ? e.hash : await sha256Hex(this.prev + canonicalEvent(this.chainId, e));
    if (e.seq !== this.seq + 1 || e.prev_hash !== this.prev || e.hash !== hash) {
      this.broken = this.seq + 1;
      return false;
    }
    if (isSealed(e)) this.sealed++;
    this.prev = e.hash;
    this.seq = e.seq;
    return true;
  }

  get head(): { seq: number; hash: string } {
    return { seq: this.seq, hash: this.prev };
  }

  result(): VerifyResult {
    return {
      ok: this.broken === null,
      events: this.seq,
      broken_at: this.broken,
      ...(this.sealed ? { sealed: this.sealed } : {}),
    };
  }
}

/** Verifies a chain page by page; `nextPage(afterSeq)` returns events in seq order. */
export async function verifyChain(
  chainId: string,
  nextPage: (afterSeq: number) => Promise<VerifiableEvent[]>,
): Promise<VerifyResult> {
  const check = new ChainCheck(chainId);
  for (;;) {
    const page = await nextPage(check.seq);
    if (page.length === 0) return check.result();
    for (const e of page) if (!(await check.add(e))) return check.result();
  }
}
