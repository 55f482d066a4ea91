/**
 * Loads the corpus through the service's own write path minus HTTP: the memory service
 * (src/domain/memory.ts) over the store the server uses, one `cairn_meter(op, cairn_write(…))`
 * or `cairn_meter('plan', cairn_plan(…))` statement per write, each its own transaction. So every
 * entry gets its search vector, postings and statistics (triggers), its ledger event in the hash
 * chain, its usage and byte counts, exactly as a client's call would leave them; meanwhile the
 * service's own upkeep runs every minute as a server's would (src/storage/pg/maintain.ts), and
 * nothing else is run (no other ANALYZE or VACUUM). Arguments are parsed by the tools' own zod schemas, as
 * the MCP layer does.
 *
 * One difference: a remember is sent as the service sends it but with `dedup: false`, so
 * cairn_write skips its look-up of an identical live memory. Every loaded content is unique (each
 * round marks its text), so that look-up finds nothing and writes nothing; but on a database
 * never analysed Postgres runs it as a scan of all the org's memories newest first
 * (entries_org_kind_created_idx) instead of a probe of entries_org_sha_idx: 150 ms per remember
 * at 78k entries, and a 1M load would take days. The measured remember calls do run it.
 *
 * Lanes write whole rounds side by side (an org's writes serialise on its entry_stats row).
 */
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { z } from 'zod';
import { hashKey } from '../../src/auth/keys';
import { uuidv7 } from '../../src/domain/ids';
import { createMemoryService, type WriteTool } from '../../src/domain/memory';
import { decideInput, noteInput, observeInput, planInput, rememberInput } from '../../src/domain/operations';
import type { CallIdentity, Store } from '../../src/domain/ports';
import { adminActions } from '../../src/operator/admin';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { type Corpus, corpusWrite } from './corpus';

const INPUTS: Record<WriteTool, z.ZodObject> = {
  remember: rememberInput,
  observe: observeInput,
  decide: decideInput,
  note: noteInput,
};

export interface LoadResult {
  orgId: string;
  secret: string;
  /** Ids of entries that replaced another (a supersede chain to show in view history). */
  historyIds: string[];
  written: number;
  refused: number;
  seconds: number;
}

/** Makes the bench org and writes the first `size` writes of the corpus into it. */
export async function writeCorpus(
  store: Store,
  corpus: Corpus,
  size: number,
  lanes: number,
  log: (line: string) => void,
): Promise<LoadResult> {
  const t0 = performance.now();
  const { org, key } = await adminActions(store, 'bench').createOrg('bench');
  const keyHash = await hashKey(key.secret);
  const service = createMemoryService({ store, blobs: createFsBlobStore(join(tmpdir(), 'cairn-bench-unused')) });
  const perRound = corpus.entries.length;
  const rounds = Math.ceil(size / perRound);
  const historyIds: string[] = [];
  let written = 0;
  let refused = 0;
  let nextRound = 0;
  let lastLog = t0;

  async function write(i: number, ids: Map<string, string>) {
    const w = corpusWrite(corpus, i);
    const who: CallIdentity = { keyHash, agent: w.agent, project: w.canonical };
    const old = w.replaces ? ids.get(w.replaces) : undefined;
    try {
      let id: string;
      if (w.tool === 'plan') {
        const { project: _, ...args } = planInput.parse({ ...w.args, ...(old ? { id: old } : {}) });
        id = (await service.plan(who, args)).entry.id;
      } else {
        const { project: _, ...parsed } = INPUTS[w.tool].parse({ ...w.args, ...(old ? { supersedes: old } : {}) });
        const args = parsed as Parameters<typeof service.write>[2];
        id =
          w.tool === 'remember'
            ? // the service's remember (memory.ts WRITES) without the duplicate look-up: see above
              (
                await store.call('write', who, {
                  ...args,
                  id: uuidv7(),
                  kind: 'memory',
                  op: 'remember',
                  default_scope: null,
                  dedup: false,
                })
              ).entry.id
            : (await service.write(w.tool, who, args)).entry.id;
      }
      ids.set(w.ref, id);
      written++;
      if (old) {
        historyIds.push(id);
        if (historyIds.length > 64) historyIds.shift();
      }
    } catch {
      refused++; // a plan moved from a final status, or a replaced entry that was itself refused
    }
  }

  async function lane() {
    for (let r = nextRound++; r < rounds; r = nextRound++) {
      const ids = new Map<string, string>();
      for (let i = r * perRound; i < Math.min(size, (r + 1) * perRound); i++) await write(i, ids);
      // PGlite answers without I/O, so a loop of awaited writes never reaches the event loop's
      // timers: let the upkeep's timer run, as it does between a server's requests
      await new Promise((resolve) => setImmediate(resolve));
      const now = performance.now();
      if (now - lastLog > 30_000) {
        lastLog = now;
        const rate = written / ((now - t0) / 1000);
        log(
          `load: ${written + refused}/${size} (${Math.round(rate)} writes/s, ${Math.round((size - written - refused) / rate / 60)} min left)`,
        );
      }
    }
  }
  await Promise.all(Array.from({ length: lanes }, lane));
  return { orgId: org.id, secret: key.secret, historyIds, written, refused, seconds: (performance.now() - t0) / 1000 };
}
