/** The dashboard's usage chart's arithmetic and drawing (src/dashboard/chart.tsx), without a server. */
import { describe, expect, it } from 'vitest';
import { chartDays, UsageChart } from '../../src/dashboard/chart';

describe('usage chart', () => {
  it('fills the days without calls and starts the month’s total again on the 1st', () => {
    const days = chartDays(
      new Map([
        ['2026-01-30', 5],
        ['2026-02-01', 2],
        ['2026-02-02', 3],
      ]),
      '2026-02-02',
      4,
    );
    expect(days).toEqual([
      { day: '2026-01-30', calls: 5, monthToDate: 5 },
      { day: '2026-01-31', calls: 0, monthToDate: 5 },
      { day: '2026-02-01', calls: 2, monthToDate: 2 },
      { day: '2026-02-02', calls: 3, monthToDate: 5 },
    ]);
  });

  it('draws one bar segment per call-bearing day, the quota line, and says the same in its description', () => {
    const days = chartDays(new Map([['2026-03-10', 30]]), '2026-03-11', 3);
    const svg = String(UsageChart({ days, quota: 100 }));
    expect(svg.match(/class="day"/g)).toHaveLength(1 + 1); // the bar, and its legend entry
    expect(svg).toContain('class="quota"');
    expect(svg).toContain('quota 100');
    expect(svg).toContain(
      '<desc id="chart-desc">30 tool calls from 2026-03-09 to 2026-03-11, most on 2026-03-10 (30). This month so far: 30 of a quota of 100 a month.</desc>',
    );
    // the quota (100) is the top of the axis: its line is drawn at the plot's top
    expect(svg).toMatch(/<line class="quota" x1="60" x2="456" y1="24" y2="24"/);
  });

  it('draws no quota line without a quota, and an axis of whole numbers', () => {
    const svg = String(UsageChart({ days: chartDays(new Map(), '2026-03-11', 30), quota: null }));
    expect(svg).not.toContain('class="quota"');
    expect(svg).toContain('with no monthly quota.');
    expect([...svg.matchAll(/text-anchor="end">([\d,.]+)</g)].map((m) => m[1])).toEqual(['0', '2', '4']);
  });
});
