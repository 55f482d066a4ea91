/**
 * The ledger's hash chain: hash = SHA-256(prev_hash ‖ canonical event), where the canonical event
 * is each field length-prefixed (`<utf8 length>:<text>`), the last (`verified`) only on an event
 * whose agent came from its credential. The database computes it on append
 * (cairn_ledger_canonical); this module recomputes it independently to verify a chain.
 */
import { sha256Hex, utf8Length } from './crypto';
import type { LedgerEvent } from './schemas';

export const GENESIS_HASH = '0'.repeat(64);

export function canonicalEvent(orgId: string, e: LedgerEvent): string {
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
  ];
  return fields.map((f) => `${utf8Length(f)}:${f}`).join('');
}

export interface VerifyResult {
  ok: boolean;
  events: number;
  /** seq of the first event whose link or hash does not hold, or null. */
  broken_at: number | null;
}

/** Verifies a chain page by page; `nextPage(afterSeq)` returns events in seq order. */
export async function verifyChain(
  orgId: string,
  nextPage: (afterSeq: number) => Promise<LedgerEvent[]>,
): Promise<VerifyResult> {
  let prev = GENESIS_HASH;
  let seq = 0;
  for (;;) {
    const page = await nextPage(seq);
    if (page.length === 0) return { ok: true, events: seq, broken_at: null };
    for (const e of page) {
      const expected = await sha256Hex(prev + canonicalEvent(orgId, e));
      if (e.seq !== seq + 1 || e.prev_hash !== prev || e.hash !== expected) {
        return { ok: false, events: seq, broken_at: seq + 1 };
      }
      prev = e.hash;
      seq = e.seq;
    }
  }
}
