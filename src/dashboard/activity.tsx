/** @jsxImportSource hono/jsx */
/**
 * Activity per agent as small multiples: one row of daily bars per agent over the last days
 * (UTC), all on one scale so rows compare, the busiest agents first and the rest folded into one
 * row. Server-rendered SVG coloured by the style sheet's classes, named by its title and summed up
 * by its description; the table beside it holds every number.
 */
import { mixedScripts } from '../domain/agents';
import type { AgentDay } from '../domain/ports';
import { DataTable } from './components';

/** One row of the chart: an agent (or the agents folded together), its events per day and in all. */
export interface AgentSeries {
  agent: string;
  counts: number[];
  total: number;
}

/** Agents drawn in rows of their own; the others share the last row. */
const MAX_ROWS = 6;

const W = 480;
const ROW = 46;
const LABEL = 16;
const TOP = 4;
const BOTTOM = 22;

const number = new Intl.NumberFormat('en');

/** The `count` days ending `today` (UTC, `YYYY-MM-DD`), oldest first. */
export function lastDays(today: string, count: number): string[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  return Array.from({ length: count }, (_, i) =>
    new Date(end - (count - 1 - i) * 86_400_000).toISOString().slice(0, 10),
  );
}

/** One series per agent (busiest first, ties by name), those past `MAX_ROWS - 1` folded into "n other agents". */
export function agentSeries(rows: AgentDay[], days: string[]): AgentSeries[] {
  const at = new Map(days.map((d, i) => [d, i]));
  const byAgent = new Map<string, AgentSeries>();
  for (const r of rows) {
    const i = at.get(r.day);
    if (i === undefined) continue;
    const s = byAgent.get(r.agent) ?? { agent: r.agent, counts: days.map(() => 0), total: 0 };
    s.counts[i] = (s.counts[i] ?? 0) + r.events;
    s.total += r.events;
    byAgent.set(r.agent, s);
  }
  const all = [...byAgent.values()].sort((a, b) => b.total - a.total || a.agent.localeCompare(b.agent));
  if (all.length <= MAX_ROWS) return all;
  const rest = all.slice(MAX_ROWS - 1);
  const other: AgentSeries = {
    agent: `${rest.length} other agents`,
    counts: days.map((_, i) => rest.reduce((sum, s) => sum + (s.counts[i] ?? 0), 0)),
    total: rest.reduce((sum, s) => sum + s.total, 0),
  };
  return [...all.slice(0, MAX_ROWS - 1), other];
}

/** The small multiples of `series` over `days` (oldest first). */
export function ActivityChart(p: { series: AgentSeries[]; days: string[] }) {
  const max = Math.max(1, ...p.series.flatMap((s) => s.counts));
  const H = TOP + p.series.length * ROW + BOTTOM;
  const slot = W / Math.max(p.days.length, 1);
  const bar = Math.max(slot * 0.7, 1);
  const plotH = ROW - LABEL - 6;
  const total = p.series.reduce((sum, s) => sum + s.total, 0);
  const summary = [
    `${number.format(total)} events from ${p.days[0]} to ${p.days.at(-1)}: `,
    p.series.map((s) => `${s.agent} ${number.format(s.total)}`).join(', '),
    `. The busiest day of one agent had ${number.format(max)}.`,
  ].join('');
  return (
    <figure class="chart activity">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="activity-title" aria-describedby="activity-desc">
        <title id="activity-title">Ledger events per agent per day</title>
        <desc id="activity-desc">{summary}</desc>
        {p.series.map((s, row) => {
          const base = TOP + row * ROW + LABEL + plotH;
          return (
            <g>
              <text class="axis agent" x={0} y={TOP + row * ROW + 12}>
                {s.agent.length > 48 ? `${s.agent.slice(0, 47)}…` : s.agent} ({number.format(s.total)})
                {mixedScripts(s.agent) ? ' · mixed scripts' : ''}
              </text>
              <line class="grid" x1={0} x2={W} y1={base} y2={base} />
              {s.counts.map((n, i) =>
                n > 0 ? (
                  <rect
                    class="day"
                    x={i * slot + (slot - bar) / 2}
                    y={base - Math.max((n / max) * plotH, 2)}
                    width={bar}
                    height={Math.max((n / max) * plotH, 2)}
                  >
                    <title>{`${s.agent}, ${p.days[i]}: ${number.format(n)} events`}</title>
                  </rect>
                ) : null,
              )}
            </g>
          );
        })}
        {p.days.map((d, i) =>
          i % 7 === (p.days.length - 1) % 7 ? (
            <text
              class="axis"
              x={i === p.days.length - 1 ? W : i * slot + slot / 2}
              y={H - 6}
              text-anchor={i === p.days.length - 1 ? 'end' : 'middle'}
            >
              {d.slice(5)}
            </text>
          ) : null,
        )}
      </svg>
      <figcaption>
        Per day (UTC), the last {p.days.length} days, every row on the same scale (the tallest bar is{' '}
        {number.format(max)} events); every number is in the table below.
      </figcaption>
    </figure>
  );
}

/** The chart's numbers: one row per day with events (newest first), one column per series. */
export function ActivityTable(p: { series: AgentSeries[]; days: string[] }) {
  const rows = p.days
    .map((day, i) => ({ day, counts: p.series.map((s) => s.counts[i] ?? 0) }))
    .filter((r) => r.counts.some((n) => n > 0))
    .reverse();
  return (
    <DataTable
      caption="Events per agent per day (UTC), days with events, newest first"
      rows={rows}
      columns={[
        { label: 'Day', cell: (r) => r.day },
        ...p.series.map((s, k) => ({
          label: s.agent,
          cell: (r: (typeof rows)[number]) => number.format(r.counts[k] ?? 0),
        })),
        { label: 'All', cell: (r) => number.format(r.counts.reduce((a, b) => a + b, 0)) },
      ]}
    />
  );
}
