/**
 * The service's own code per call, replayed (`npm run bench:cpu`, the "own code" column): what a
 * tool call costs in this repository's code and the libraries it calls, without the sockets and
 * the database. In the bench process, the service is built as `cairn serve` builds it (the app
 * over the Postgres store and the filesystem's blobs) and each tool is called through its /mcp
 * handler with the request a client sends. Its first `calls` calls run against the database and
 * each statement's answer is recorded as the driver received it (text, with its column types);
 * then the same calls are replayed `rounds` times with those answers, parsed by the driver's own
 * type parsers, and the process's CPU is counted around each handler call only. No socket is read
 * or written and nothing waits, so the figure is the same on a quiet or a busy machine and on a
 * slow or a fast virtual one as far as the code's own cost goes: the least per call of the rounds
 * (the round that ran undisturbed).
 *
 * `evictMb`: before each measured call, read that many megabytes of other memory, as a database
 * query that ran on the same core in between would have evicted the caches (docs/design.md,
 * "CPU per call").
 *
 * `idleMs`: before each measured call, let the process sit idle that long (a timer), as a live call
 * sits idle while its statement runs: on a virtual machine whose core then goes to other work, the
 * same code costs more after the wait (docs/design.md, "CPU per call"). No database, no socket.
 */
import pg from 'pg';
import { createCairn } from '../../src/app';
import { parseConfig } from '../../src/config';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { APP_ROLE } from '../../src/storage/pg/client';
import { createPgStore } from '../../src/storage/pg/store';
import { allOps, type RunState, rpcOver } from './calls';
import type { Corpus } from './corpus';
import type { Prepared } from './databases';

interface Options {
  calls: number;
  rounds: number;
  evictMb?: number;
  idleMs?: number;
  log: (line: string) => void;
}

/** One statement's answer as the driver received it: column names and type ids, rows as text. */
interface Answer {
  names: string[];
  parsers: ((text: string) => unknown)[];
  rows: (string | null)[][];
}

/** Rounds replayed before counting: V8 optimises a function after many calls. */
const WARM_ROUNDS = 5;

const AS_TEXT = { getTypeParser: () => (text: string) => text };

/** Microseconds of CPU per call of each op whose name `wanted` takes, replayed. */
export async function ownCodeCpu(
  prepared: Prepared,
  corpus: Corpus,
  wanted: (name: string) => boolean,
  opts: Options,
): Promise<Map<string, number>> {
  if (!prepared.databaseUrl) throw new Error('the replay runs on the Postgres database');
  const pool = new pg.Pool({ connectionString: prepared.databaseUrl, max: 2, options: `-c role=${APP_ROLE}` });
  let recording = true;
  let tape: Answer[] = [];
  let next = 0;
  const store = createPgStore(
    async ({ text, params }) => {
      if (recording) {
        const r = await pool.query({ text, values: params, types: AS_TEXT, rowMode: 'array' });
        const answer: Answer = {
          names: r.fields.map((f) => f.name),
          parsers: r.fields.map((f) => pg.types.getTypeParser(f.dataTypeID)),
          rows: r.rows as (string | null)[][],
        };
        tape.push(answer);
        return { rows: rowsOf(answer) };
      }
      return { rows: rowsOf(tape[next++ % tape.length] as Answer) };
    },
    () => pool.end(),
  );
  const config = parseConfig({ DATABASE_URL: prepared.databaseUrl, CAIRN_DATA_DIR: prepared.dataDir });
  const { mcp } = createCairn({
    config,
    store,
    blobs: createFsBlobStore(`${prepared.dataDir}/blobs`),
    embedder: null,
    log: opts.log,
  });
  const evict = opts.evictMb ? new Uint8Array(opts.evictMb << 20).fill(1) : null;
  let cpu = 0;
  const rpc = rpcOver(async (body, headers) => {
    const bytes = Buffer.from(body);
    const all: Record<string, string> = { ...headers, host: '127.0.0.1', 'content-length': String(bytes.length) };
    if (evict) {
      let sum = 0;
      for (let i = 0; i < evict.length; i += 64) sum += evict[i] as number;
      evict[0] = sum & 1;
    }
    if (opts.idleMs && !recording) await new Promise((resolve) => setTimeout(resolve, opts.idleMs));
    const before = process.cpuUsage();
    const answer = await mcp({
      method: 'POST',
      header: (name) => all[name],
      host: () => '127.0.0.1',
      body: async () => bytes,
      web: () => {
        throw new Error('a plain tool call needs no web Request');
      },
      origin: () => 'http://127.0.0.1',
      peer: () => '127.0.0.1',
    });
    const spent = process.cpuUsage(before);
    cpu += spent.user + spent.system;
    if (answer instanceof Response) return { status: answer.status, text: await answer.text() };
    return { status: answer.status, text: answer.json };
  }, prepared.manifest.secret);
  const state: RunState = { written: [], plans: [], artifacts: [], historyIds: prepared.manifest.historyIds };
  const ops = allOps(rpc, corpus, state, `replay${Date.now().toString(36)}`).filter((op) => wanted(op.name));
  const out = new Map<string, number>();
  try {
    for (const op of ops) {
      recording = true;
      // enough for the recorded calls and for each round's replay (forget takes an entry a call)
      await op.prepare?.(2 * opts.calls);
      tape = [];
      for (let i = 0; i < opts.calls; i++) await op.call(i);
      recording = false;
      const saved = { written: [...state.written], plans: [...state.plans], artifacts: [...state.artifacts] };
      const perRound: number[] = [];
      for (let round = -WARM_ROUNDS; round < opts.rounds; round++) {
        next = 0;
        cpu = 0;
        for (let i = 0; i < opts.calls; i++) await op.call(i);
        if (round >= 0) perRound.push(cpu / opts.calls);
        // the lists as the recorded calls left them: a replayed call added or took nothing real
        state.written.splice(0, Infinity, ...saved.written);
        state.plans.splice(0, Infinity, ...saved.plans);
        state.artifacts.splice(0, Infinity, ...saved.artifacts);
      }
      out.set(op.name, Math.round(Math.min(...perRound)));
      opts.log(`own code ${op.name}: ${out.get(op.name)} µs/call (least of ${opts.rounds} rounds of ${opts.calls})`);
    }
  } finally {
    await store.close();
  }
  return out;
}

function rowsOf(answer: Answer): Record<string, unknown>[] {
  return answer.rows.map((row) => {
    const out: Record<string, unknown> = {};
    row.forEach((text, k) => {
      out[answer.names[k] as string] = text === null ? null : (answer.parsers[k] as (t: string) => unknown)(text);
    });
    return out;
  });
}
