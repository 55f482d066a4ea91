import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/crypto';
import { canonicalEvent, GENESIS_HASH, verifyChain } from '../../src/domain/ledger';
import type { LedgerEvent } from '../../src/domain/schemas';

const ORG = '01900000-0000-7000-8000-000000000001';

async function chain(n: number): Promise<LedgerEvent[]> {
  const out: LedgerEvent[] = [];
  let prev = GENESIS_HASH;
  for (let seq = 1; seq <= n; seq++) {
    const e: LedgerEvent = {
      seq,
      at: new Date(1_700_000_000_000 + seq).toISOString(),
      agent: `agent|${seq}`,
      op: 'remember',
      entry_id: null,
      project: null,
      content_sha256: null,
      reason: seq === 2 ? 'ünïcode' : null,
      verified: seq % 2 === 0,
      actor_kind: ([null, 'agent', 'member', 'operator'] as const)[seq % 4] ?? null,
      prev_hash: prev,
      hash: '',
    };
    e.hash = await sha256Hex(prev + canonicalEvent(ORG, e));
    prev = e.hash;
    out.push(e);
  }
  return out;
}

const pager =
  (events: LedgerEvent[], size = 2) =>
  async (after: number) =>
    events.filter((e) => e.seq > after).slice(0, size);

describe('ledger chain', () => {
  it('length-prefixes fields in UTF-8 bytes, so separators in values cannot collide', () => {
    const e = {
      seq: 1,
      at: '1970-01-01T00:00:00.005Z',
      agent: 'a:b',
      op: 'op',
      entry_id: null,
      project: null,
      content_sha256: null,
      reason: 'é',
      verified: false,
      actor_kind: null as LedgerEvent['actor_kind'],
      prev_hash: '',
      hash: '',
    };
    expect(canonicalEvent(ORG, e)).toBe(`1:136:${ORG}1:53:a:b2:op0:0:0:2:é`);
    // a verified event ends with the field `verified`; an unverified one keeps the older form
    expect(canonicalEvent(ORG, { ...e, verified: true })).toBe(`1:136:${ORG}1:53:a:b2:op0:0:0:2:é8:verified`);
    // who acted (drizzle/0032), after `verified` and before a private event's salt; an event
    // recorded before the kind was keeps its form
    expect(canonicalEvent(ORG, { ...e, verified: true, actor_kind: 'member', salt: 'ab' })).toBe(
      `1:136:${ORG}1:53:a:b2:op0:0:0:2:é8:verified12:actor:member2:ab`,
    );
    expect(canonicalEvent(ORG, { ...e, actor_kind: 'agent' })).toBe(`1:136:${ORG}1:53:a:b2:op0:0:0:2:é11:actor:agent`);
  });

  it('verifies an intact chain across pages', async () => {
    expect(await verifyChain(ORG, pager(await chain(5)))).toEqual({ ok: true, events: 5, broken_at: null });
    expect(await verifyChain(ORG, pager([]))).toEqual({ ok: true, events: 0, broken_at: null });
  });

  it('finds the first altered, missing or reordered event', async () => {
    const altered = await chain(5);
    (altered[2] as LedgerEvent).agent = 'mallory';
    expect(await verifyChain(ORG, pager(altered))).toEqual({ ok: false, events: 2, broken_at: 3 });
    // a member's action passed off as an agent's (seq 2 is a member's)
    const recast = await chain(5);
    (recast[1] as LedgerEvent).actor_kind = 'agent';
    expect(await verifyChain(ORG, pager(recast))).toEqual({ ok: false, events: 1, broken_at: 2 });
    const gap = (await chain(5)).filter((e) => e.seq !== 4);
    expect(await verifyChain(ORG, pager(gap))).toMatchObject({ ok: false, broken_at: 4 });
    expect(await verifyChain('01900000-0000-7000-8000-000000000002', pager(await chain(2)))).toMatchObject({
      ok: false,
      broken_at: 1,
    });
  });
});
