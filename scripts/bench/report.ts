/** The benchmark's tables in Markdown: cells per database and size, flatness, one org's writes. */
import type { Db } from './databases';
import type { Cell } from './measure';
import type { OrgWrites } from './org-writes';

export interface Flat {
  db: Db;
  op: string;
  c: number;
  small: number;
  large: number;
  /** p95 at the largest size over p95 at the smallest. */
  ratio: number;
  over: boolean;
}

const fmt = (x: number | null | undefined, d = 2) => (x === null || x === undefined ? 'in process' : x.toFixed(d));
const sizeName = (n: number) => (n >= 1e6 ? `${n / 1e6}M` : n >= 1e3 ? `${n / 1e3}k` : String(n));
/** Cells measured while other work took more than a quarter of a core, or tests ran. */
export const noisy = (c: Cell) => c.otherCores > 0.25 || c.testsRunning;

/** Each cell's server CPU and total CPU (server and backends) per call over the floor's at its concurrency. */
export function overFloor(cells: Cell[], cell: Cell): { server: number; total: number } | undefined {
  const floor = cells.find((f) => f.op === 'floor' && f.db === cell.db && f.size === cell.size && f.c === cell.c);
  if (!floor || cell.op === 'floor') return undefined;
  const total = (x: Cell) => x.serverCpu + (x.dbCpu ?? 0);
  return { server: cell.serverCpu / floor.serverCpu, total: total(cell) / total(floor) };
}

export function cellTable(cells: Cell[], all: Cell[]): string {
  const rows = cells.map((c) => {
    const x = overFloor(all, c);
    const notes = [
      c.errors ? `${c.errors} errors: ${c.firstError ?? ''}` : '',
      noisy(c) ? `noisy (${c.testsRunning ? 'tests running; ' : ''}other work ${c.otherCores} cores)` : '',
    ]
      .filter(Boolean)
      .join('; ');
    return `| ${c.op} | ${c.c} | ${c.rps.toFixed(1)} | ${fmt(c.p50)} | ${fmt(c.p95)} | ${fmt(c.serverCpu)} | ${fmt(c.dbCpu)} | ${x ? `${x.server.toFixed(2)}×` : '—'} | ${x ? `${x.total.toFixed(2)}×` : '—'} | ${notes} |`;
  });
  return [
    '| tool | c | req/s | p50 ms | p95 ms | server CPU ms/call | DB CPU ms/call | server CPU × floor | server+DB CPU × floor | notes |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...rows,
  ].join('\n');
}

/** p95 at the largest size measured over p95 at the smallest, per database, op and concurrency. */
export function flatness(cells: Cell[], limit = 2): Flat[] {
  const out: Flat[] = [];
  for (const [db, ofDb] of Map.groupBy(cells, (c) => c.db)) {
    const sizes = [...new Set(ofDb.map((c) => c.size))].sort((a, b) => a - b);
    if (sizes.length < 2) continue;
    const [lo, hi] = [sizes[0], sizes.at(-1)];
    for (const s of ofDb.filter((c) => c.size === lo)) {
      const l = ofDb.find((c) => c.size === hi && c.op === s.op && c.c === s.c);
      if (!l) continue;
      const ratio = l.p95 / s.p95;
      out.push({ db, op: s.op, c: s.c, small: s.p95, large: l.p95, ratio, over: ratio > limit });
    }
  }
  return out;
}

export function flatTable(flat: Flat[], sizes: Map<Db, number[]>): string {
  const head = (db: Db) => {
    const s = sizes.get(db) ?? [];
    return [sizeName(s[0] ?? 0), sizeName(s.at(-1) ?? 0)];
  };
  return [
    '| database | tool | c | p95 ms (smallest) | p95 ms (largest) | largest ÷ smallest | ≤ 2× |',
    '| --- | --- | --- | --- | --- | --- | --- |',
    ...flat.map((f) => {
      const [a, b] = head(f.db);
      return `| ${f.db} ${a} → ${b} | ${f.op} | ${f.c} | ${fmt(f.small)} | ${fmt(f.large)} | ${f.ratio.toFixed(2)} | ${f.over ? '**no**' : 'yes'} |`;
    }),
  ].join('\n');
}

/** One org's writes: a column per lock waited on (the org seal always), by total wait. */
export function orgTable(rows: OrgWrites[]): string {
  const total = new Map<string, number>([['the org seal', 0]]);
  for (const w of rows) for (const v of w.waits) total.set(v.relation, (total.get(v.relation) ?? 0) + v.waiting);
  const rels = [...total].sort((a, b) => b[1] - a[1]).map(([r]) => r);
  const wait = (w: OrgWrites, rel: string) => {
    const x = w.waits.find((v) => v.relation === rel);
    return w.samples === null ? 'n/a' : x ? `${x.msPerWrite} ms (${(x.share * 100).toFixed(0)}%)` : '0';
  };
  return [
    `| database | entries | c | writes/s | p50 ms | p95 ms | server CPU ms/write | DB CPU ms/write | backends active (mean) | ${rels.map((r) => `wait on ${r}`).join(' | ')} | notes |`,
    `| --- | --- | --- | --- | --- | --- | --- | --- | --- | ${rels.map(() => '---').join(' | ')} | --- |`,
    ...rows.map((w) => {
      const c = w.cell;
      const notes = [c.errors ? `${c.errors} errors: ${c.firstError ?? ''}` : '', noisy(c) ? 'noisy' : '']
        .filter(Boolean)
        .join('; ');
      return `| ${c.db} | ${sizeName(c.size)} | ${c.c} | ${c.rps.toFixed(1)} | ${fmt(c.p50)} | ${fmt(c.p95)} | ${fmt(c.serverCpu)} | ${fmt(c.dbCpu)} | ${w.active ?? 'n/a (one connection)'} | ${rels.map((r) => wait(w, r)).join(' | ')} | ${notes} |`;
    }),
  ].join('\n');
}

/** Per tool, its CPU per call over the floor's at concurrency `c`, one column per database and size. */
export function floorTable(cells: Cell[], c: number): string {
  const runs = [...new Map(cells.map((x) => [`${x.db} ${x.size}`, x])).values()];
  const ops = [...new Set(cells.filter((x) => x.op !== 'floor').map((x) => x.op))];
  const at = (op: string, r: Cell) => cells.find((x) => x.op === op && x.db === r.db && x.size === r.size && x.c === c);
  return [
    `| tool | ${runs.map((r) => `${r.db} ${sizeName(r.size)}`).join(' | ')} |`,
    `| --- | ${runs.map(() => '---').join(' | ')} |`,
    ...ops.map((op) => {
      const row = runs.map((r) => {
        const x = at(op, r);
        const f = x && overFloor(cells, x);
        return f
          ? r.db === 'embedded'
            ? `${f.server.toFixed(1)}×`
            : `${f.server.toFixed(1)}× / ${f.total.toFixed(1)}×`
          : '—';
      });
      return `| ${op} | ${row.join(' | ')} |`;
    }),
  ].join('\n');
}

export { sizeName };
