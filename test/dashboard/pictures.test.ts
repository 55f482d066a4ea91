/**
 * The dashboard's other pictures without a server: a plan's board and its live claims, activity
 * per agent (src/dashboard/activity.tsx), and the ledger's timeline with a broken chain.
 */
import { describe, expect, it } from 'vitest';
import { ActivityChart, agentSeries, lastDays } from '../../src/dashboard/activity';
import { liveClaim } from '../../src/dashboard/plan-board';
import { Timeline } from '../../src/dashboard/timeline';
import type { LedgerEvent } from '../../src/domain/schemas';

describe('pictures', () => {
  it('shows a claim only while it holds', () => {
    const now = Date.parse('2026-05-01T12:00:00Z');
    const step = { text: 'x', status: 'doing', claimed_by: 'ada', claim_expires_at: '2026-05-01T12:15:00.000Z' };
    expect(liveClaim(step, now)).toEqual({ by: 'ada', until: '2026-05-01T12:15:00.000Z' });
    expect(liveClaim({ ...step, claim_expires_at: '2026-05-01T11:59:59.000Z' }, now)).toBeNull();
    expect(liveClaim({ text: 'x', status: 'todo' }, now)).toBeNull();
  });

  it('puts each agent on its own row, busiest first, and folds the rest into one', () => {
    const days = lastDays('2026-05-02', 3);
    expect(days).toEqual(['2026-04-30', '2026-05-01', '2026-05-02']);
    const rows = [
      { agent: 'b', day: '2026-05-01', events: 2 },
      { agent: 'a', day: '2026-05-02', events: 5 },
      { agent: 'c', day: '2026-04-01', events: 9 }, // outside the days: not drawn
      ...Array.from({ length: 6 }, (_, i) => ({ agent: `z${i}`, day: '2026-04-30', events: 1 })),
    ];
    const series = agentSeries(rows, days);
    expect(series.map((s) => s.agent)).toEqual(['a', 'b', 'z0', 'z1', 'z2', '3 other agents']);
    expect(series[0]?.counts).toEqual([0, 0, 5]);
    expect(series.at(-1)?.counts).toEqual([3, 0, 0]);
    const svg = String(ActivityChart({ series, days }));
    expect(svg).toContain('<title>a, 2026-05-02: 5 events</title>');
    expect(svg).toContain('13 events from 2026-04-30 to 2026-05-02: a 5, b 2');
  });

  it('marks the event where the chain breaks and those after it, in words', () => {
    const event = (seq: number): LedgerEvent => ({
      seq,
      at: '2026-05-01T10:00:00.000Z',
      agent: 'ada',
      op: 'remember',
      entry_id: null,
      project: null,
      content_sha256: null,
      reason: null,
      verified: seq === 1,
      actor_kind: seq === 3 ? 'member' : 'agent',
      prev_hash: '0',
      hash: '1',
    });
    const html = String(
      Timeline({ events: [3, 2, 1].map(event), chain: { ok: false, events: 3, broken_at: 2 }, label: 'Events' }),
    );
    expect(html.match(/<li class="event broken">/g)).toHaveLength(2);
    expect(html).toContain('The chain breaks here');
    expect(html).toContain('After the break');
    expect(html.match(/verified agent/g)).toHaveLength(1);
    // a member's action says so; an agent's has no kind badge
    expect(
      html.match(/<span class="badge" title="a member of the org, acting in the dashboard">member<\/span>/g),
    ).toHaveLength(1);
    expect(html).not.toContain('>agent</span>');
  });
});
