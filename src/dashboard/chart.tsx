/** @jsxImportSource hono/jsx */
/**
 * Usage per day as a server-rendered SVG bar chart: for each of the last days (UTC), the month's
 * tool calls so far, the day's own calls on top, against the monthly quota as a dashed line.
 * Coloured by the style sheet's classes (so dark mode follows); named by its title and summed up
 * by its description for screen readers, with the page's table holding every number.
 */

/** One day of the chart: its calls, and the month's calls up to its end. */
export interface ChartDay {
  day: string;
  calls: number;
  monthToDate: number;
}

const W = 480;
const H = 200;
const LEFT = 60;
const RIGHT = 24;
const TOP = 24;
const BOTTOM = 28;

const number = new Intl.NumberFormat('en');

/** The days ending `today`, oldest first, each with its calls (0 when none) and the month's running total. */
export function chartDays(calls: Map<string, number>, today: string, count: number): ChartDay[] {
  const end = Date.parse(`${today}T00:00:00Z`);
  const days: ChartDay[] = [];
  let month = '';
  let sum = 0;
  for (let i = count - 1; i >= 0; i--) {
    const day = new Date(end - i * 86_400_000).toISOString().slice(0, 10);
    if (day.slice(0, 7) !== month) {
      month = day.slice(0, 7);
      sum = 0;
    }
    const n = calls.get(day) ?? 0;
    sum += n;
    days.push({ day, calls: n, monthToDate: sum });
  }
  return days;
}

/** A round top for the axis, at least `max` (≥ 4): 1, 2, 4, 6 or 8 times a power of ten, so its half is whole too. */
function niceTop(max: number): number {
  const power = 10 ** Math.floor(Math.log10(max));
  const step = [1, 2, 4, 6, 8, 10].find((m) => m * power >= max) ?? 10;
  return step * power;
}

/** The chart of `days` (oldest first) against `quota` (tool calls a month; null: none). */
export function UsageChart(p: { days: ChartDay[]; quota: number | null }) {
  // at least 4, so that the axis's middle mark is a whole number
  const top = niceTop(Math.max(4, p.quota ?? 0, ...p.days.map((d) => d.monthToDate)));
  const plotW = W - LEFT - RIGHT;
  const plotH = H - TOP - BOTTOM;
  const y = (v: number) => TOP + plotH - (v / top) * plotH;
  const slot = plotW / Math.max(p.days.length, 1);
  const bar = Math.max(slot * 0.7, 1);
  const total = p.days.reduce((s, d) => s + d.calls, 0);
  const busiest = p.days.reduce<ChartDay | undefined>((b, d) => (d.calls > (b?.calls ?? 0) ? d : b), undefined);
  const last = p.days.at(-1);
  const first = p.days[0];
  const summary = [
    `${number.format(total)} tool calls from ${first?.day} to ${last?.day}`,
    busiest ? `, most on ${busiest.day} (${number.format(busiest.calls)})` : '',
    `. This month so far: ${number.format(last?.monthToDate ?? 0)}`,
    p.quota === null ? ', with no monthly quota.' : ` of a quota of ${number.format(p.quota)} a month.`,
  ].join('');
  return (
    <figure class="chart">
      <svg viewBox={`0 0 ${W} ${H}`} role="img" aria-labelledby="chart-title" aria-describedby="chart-desc">
        <title id="chart-title">Tool calls per day, month to date{p.quota === null ? '' : ' against the quota'}</title>
        <desc id="chart-desc">{summary}</desc>
        {[0, 0.5, 1].map((f) => (
          <g>
            <line class="grid" x1={LEFT} x2={W - RIGHT} y1={y(top * f)} y2={y(top * f)} />
            <text class="axis" x={LEFT - 6} y={y(top * f) + 4} text-anchor="end">
              {number.format(top * f)}
            </text>
          </g>
        ))}
        {p.days.map((d, i) => {
          const x = LEFT + i * slot + (slot - bar) / 2;
          const before = d.monthToDate - d.calls;
          return (
            <g>
              <title>{`${d.day}: ${number.format(d.calls)} calls; ${number.format(d.monthToDate)} this month`}</title>
              {before > 0 ? (
                <rect class="prev" x={x} y={y(d.monthToDate - d.calls)} width={bar} height={y(0) - y(before)} />
              ) : null}
              {d.calls > 0 ? (
                <rect
                  class="day"
                  x={x}
                  y={y(d.monthToDate)}
                  width={bar}
                  height={Math.max(y(before) - y(d.monthToDate), 1)}
                />
              ) : null}
              {i % 7 === (p.days.length - 1) % 7 ? (
                <text class="axis" x={x + bar / 2} y={H - 6} text-anchor="middle">
                  {d.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
        {p.quota === null ? null : (
          <g>
            <line class="quota" x1={LEFT} x2={W - RIGHT} y1={y(p.quota)} y2={y(p.quota)} />
            <text class="quota-label" x={W - RIGHT} y={y(p.quota) - 4} text-anchor="end">
              quota {number.format(p.quota)}
            </text>
          </g>
        )}
      </svg>
      <ul class="legend" aria-hidden="true">
        <li class="day">the day’s calls</li>
        <li class="prev">earlier this month</li>
        {p.quota === null ? null : <li class="quota">monthly quota</li>}
      </ul>
      <figcaption>Per day (UTC), the last {p.days.length} days; every number is in the table below.</figcaption>
    </figure>
  );
}
