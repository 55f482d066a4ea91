/** The 'bench' section of BENCHMARKS.md: the run, its databases, every table, and what failed its target. */
import type { Db, Manifest } from './databases';
import type { Cell } from './measure';
import type { OrgWrites } from './org-writes';
import { cellTable, flatness, flatTable, floorTable, noisy, orgTable, overFloor, sizeName } from './report';

export interface Info {
  date: string;
  machine: string;
  command: string;
  revision: string;
  seconds: number;
  warmup: number;
  /** Seconds of reads each server ran at its start before any cell (absent in older results). */
  jitWarmup?: number;
  file: string;
}

/** One database of one size as the run served it. */
export interface RunInfo {
  db: Db;
  size: number;
  reused: boolean;
  entriesAtEnd: number;
  manifest: Omit<Manifest, 'secret'>;
}

export function benchMarkdown(info: Info, runs: RunInfo[], cells: Cell[], org: OrgWrites[]): string {
  const out: string[] = [
    `Run ${info.date} on ${info.machine}; revision ${info.revision}; command \`${info.command}\`; ${info.seconds} s per cell after ${info.warmup} s of warm-up${info.jitWarmup ? `, each server first warmed by ${info.jitWarmup} s of reads (every read tool in turn)` : ''}; raw figures in \`bench/results/${info.file}\`.`,
    '',
  ];
  for (const r of runs) {
    const m = r.manifest;
    out.push(
      `- ${r.db} ${sizeName(r.size)}: template loaded ${m.loadedAt.slice(0, 16).replace('T', ' ')} through the write path, ${m.written} entries (${m.refused} refused) in ${Math.round(m.seconds)} s (${Math.round(m.written / m.seconds)} writes/s, ${m.lanes} lanes)${m.upgradedAt ? `, upgraded in place to this revision's schema ${m.upgradedAt.slice(0, 16).replace('T', ' ')} (its migrations, as a release upgrades an installed database)` : ''}${r.reused ? ', reused' : ''}; ${r.entriesAtEnd} entries in the org at the end of the run.`,
    );
  }
  const sizes = new Map<Db, number[]>();
  for (const r of runs)
    sizes.set(
      r.db,
      [...(sizes.get(r.db) ?? []), r.size].sort((a, b) => a - b),
    );
  for (const r of runs) {
    out.push(
      '',
      `### ${r.db === 'postgres' ? 'Postgres server' : 'Embedded (PGlite)'}, ${sizeName(r.size)} entries`,
      '',
    );
    out.push(
      cellTable(
        cells.filter((c) => c.db === r.db && c.size === r.size),
        cells,
      ),
    );
  }
  const flat = flatness(cells.filter((c) => c.op !== 'floor'));
  if (flat.length) {
    const over = flat.filter((f) => f.over);
    out.push('', '### Flatness: p95 at the largest size over p95 at the smallest', '', flatTable(flat, sizes), '');
    out.push(
      over.length
        ? `Above 2×: ${over.map((f) => `${f.db} ${f.op} c=${f.c} (${f.ratio.toFixed(2)}×)`).join(', ')}.`
        : 'Every tool within 2×.',
    );
  }
  const tools = cells.filter((c) => c.op !== 'floor');
  const light = tools.filter((c) => (overFloor(cells, c)?.server ?? 0) <= 2);
  out.push(
    '',
    `### CPU per call over the floor's (c = 1): server${runs.some((r) => r.db === 'postgres') ? ' / server + database (Postgres)' : ''}`,
    '',
    floorTable(cells, Math.min(...cells.map((c) => c.c))),
    '',
    light.length
      ? `Server CPU within 2× the floor's: ${light.map((c) => `${c.db} ${sizeName(c.size)} ${c.op} c=${c.c}`).join(', ')}; every other cell above.`
      : `Server CPU above 2× the floor's in every cell (${tools.length} of ${tools.length}).`,
  );
  const shaky = cells.filter(noisy);
  if (shaky.length) {
    out.push(
      '',
      `Cells measured while other work ran on the machine (marked noisy): ${shaky.length} of ${cells.length}.`,
    );
  }
  if (org.length) out.push('', '### One org: writes per second and lock waits', '', orgTable(org));
  return out.join('\n');
}
