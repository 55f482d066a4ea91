/**
 * The most writes per second one org sustains, and the time its writes wait on locks. A write of
 * an org leaves its ledger event, statistics, counts and usage pending and takes no shared row
 * (docs/design.md, "One org under many writers"); before drizzle/0021 each locked the org's
 * entry_stats row, its ledger head and its usage rows until its commit. Closed-loop clients write
 * (remember, observe, decide and note in turn, all new content) at each concurrency for SECONDS.
 *
 * The lock wait is sampled, not timed: every 20 ms, pg_stat_activity lists the server's backends
 * and one snapshot of pg_locks says which of them wait for a lock and on which relation's row (a
 * backend waiting for a row holds or awaits the heavyweight `tuple` lock of that row). The mean
 * number waiting on a relation, times the wall time, divided by the writes, is the mean wait per
 * write; its share of the active backends' time is the share lost to that lock. Embedded there is
 * one connection and so no row lock: calls queue inside the process instead.
 */
import pg from 'pg';
import type { Op, Rpc } from './calls';
import type { Corpus } from './corpus';
import { dbUrl } from './databases';
import { type Cell, type CellOptions, type During, runCell } from './measure';
import type { Running } from './procs';

export interface LockWait {
  relation: string;
  /** Mean backends waiting for a row of it. */
  waiting: number;
  msPerWrite: number;
  /** Of the active backends' time. */
  share: number;
}

export interface OrgWrites {
  cell: Cell;
  samples: number | null;
  /** Mean backends running a statement. */
  active: number | null;
  waits: LockWait[];
}

/**
 * One row per backend of the server: whether it runs a statement, and what it waits for, from one
 * snapshot of pg_locks. Waiting: a lock not granted. On what: the relation of the tuple lock it
 * holds or awaits (a row another write has locked); the org's seal (the advisory lock of
 * sql/entries/cairn_org_seal.sql, which a reader of the ledger or counts waits for); else the kind
 * of lock (a backend re-checking a row another write has just updated waits on that write's
 * transaction without a tuple lock).
 */
const SAMPLE = `
  WITH l AS MATERIALIZED (SELECT pid, locktype, mode, relation, classid, granted FROM pg_locks)
  SELECT a.state = 'active' AS active,
    (SELECT coalesce(
        (SELECT c.relname::text FROM l t JOIN pg_class c ON c.oid = t.relation
          WHERE t.pid = a.pid AND t.locktype = 'tuple' LIMIT 1),
        CASE WHEN w.locktype = 'advisory' AND w.classid = 1128878670 THEN 'the org seal' END,
        'other: ' || w.locktype)
      FROM l w WHERE w.pid = a.pid AND NOT w.granted LIMIT 1) AS rel
  FROM pg_stat_activity a
  WHERE a.datname = current_database() AND a.application_name = $1`;

function lockSampler(datname: string, app: string) {
  const db = new pg.Client({ connectionString: dbUrl(datname), application_name: 'cairn-bench-locks' });
  let running: Promise<void> | undefined;
  let stopped = false;
  const totals = { samples: 0, active: 0, waiting: new Map<string, number>() };
  const during: During = {
    async start() {
      await db.connect();
      running = (async () => {
        while (!stopped) {
          const { rows } = await db.query<{ active: boolean; rel: string | null }>(SAMPLE, [app]);
          totals.samples++;
          for (const r of rows) {
            if (r.active) totals.active++;
            if (r.rel) totals.waiting.set(r.rel, (totals.waiting.get(r.rel) ?? 0) + 1);
          }
          await new Promise((r) => setTimeout(r, 20));
        }
      })();
    },
    async stop() {
      stopped = true;
      await running;
      await db.end();
    },
  };
  return { during, totals };
}

export async function orgWrites(
  target: Running,
  rpc: Rpc,
  corpus: Corpus,
  runTag: string,
  c: number,
  o: CellOptions,
): Promise<OrgWrites> {
  const tools = ['remember', 'observe', 'decide', 'note'] as const;
  const decisions = corpus.entries.filter((e) => e.tool === 'decide');
  let serial = 0;
  const op: Op = {
    name: 'org writes',
    call: (i) => {
      const name = tools[i % tools.length] as string;
      const a = corpus.agents[i % corpus.agents.length] as { agent: string; project: string | null };
      const e = decisions[i % decisions.length] as { args: Record<string, unknown> };
      const args = {
        content: `${e.args.content as string} [org writes ${runTag} ${serial++}]`,
        ...(name === 'decide' ? { rationale: e.args.rationale } : {}),
        ...(name === 'observe' ? { source: 'bench' } : {}),
        ...(a.project ? { project: a.project } : {}),
      };
      return rpc('tools/call', { name, arguments: args }, a.agent);
    },
  };
  const sampler = o.datname ? lockSampler(o.datname, target.app) : undefined;
  const cell = await runCell(target, op, c, o, 0, sampler?.during);
  const s = sampler?.totals;
  if (!s || s.samples === 0) return { cell, samples: null, active: null, waits: [] };
  const seconds = cell.requests / cell.rps;
  const active = s.active / s.samples;
  const r = (x: number, d = 100) => Math.round(x * d) / d;
  const waits = [...s.waiting]
    .map(([relation, n]) => {
      const mean = n / s.samples;
      return {
        relation,
        waiting: r(mean),
        msPerWrite: r((mean * seconds * 1000) / cell.requests),
        share: r(mean / Math.max(active, 1e-9), 1000),
      };
    })
    .sort((a, b) => b.waiting - a.waiting);
  return { cell, samples: s.samples, active: r(active), waits };
}
