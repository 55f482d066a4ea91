/**
 * The memory service: what each tool does, independent of MCP and of the database driver.
 * Every operation is one `Store.call` (one database round trip); artifact bytes go to the blob
 * store around it.
 */

import { type Brief, briefCandidates, type Held, heldCandidates, packBrief } from './brief';
import { sha256Hex } from './crypto';
import { Invalid, NotFound, Unavailable } from './errors';
import { uuidv7 } from './ids';
import type {
  ArtifactGetArgs,
  ArtifactPutArgs,
  EmbeddingArgs,
  ForgetArgs,
  PlanArgs,
  RecallArgs,
  SpaceArgs,
  SpaceCaller,
  SpaceFound,
  StoreOps,
  WriteArgs,
} from './operations';
import { allowedFrom, DEFAULT_PLAN_STATUS, FINAL_PLAN_STATUSES, INITIAL_PLAN_STATUSES, type PlanStatus } from './plans';
import type { BlobStore, CallIdentity, Semantic, Store } from './ports';
import { kindAskedBy, rankedQuery } from './query';
import { artifactFields, entryFields, refuseSecrets } from './secrets';
import { withIsoTimes } from './types';

/** What `space` answers: the view's findings (a brief with its text), and for an overview or a brief the project used. */
export type SpaceResult = Omit<SpaceFound, 'brief'> & {
  brief?: Brief;
  project?: string | null;
  /** Whom the call acted as (a key bound to an agent is that agent), and whether its credential says so. */
  caller: SpaceCaller;
};

/** A brief's read (its key, agent, project and scope) and the candidates held from the last one of it. */
interface BriefRead {
  read: string;
  held: Held;
}

/** A space view's part of the store's answer, its times as ISO strings (a brief packed). */
function spaceView(r: StoreOps['space']['result'], budget: number, brief?: BriefRead): Omit<SpaceResult, 'caller'> {
  const isoAll = <T>(list: T[]) => list.map((x) => withIsoTimes(x));
  if (r.candidates && brief) {
    return {
      brief: packBrief(briefCandidates(r.candidates, brief.held, brief.read), budget, r.project ?? null),
      project: r.project ?? null,
    };
  }
  if (r.history) {
    const h = r.history;
    return {
      history: {
        entry: withIsoTimes(h.entry),
        versions: isoAll(h.versions),
        chain: isoAll(h.chain),
        replaced_in: h.replaced_in,
        events: isoAll(h.events),
      },
    };
  }
  if (r.events) return { events: isoAll(r.events) };
  if (r.projects) return { projects: isoAll(r.projects) };
  if (r.agents) return { agents: isoAll(r.agents) };
  const { caller: _, ...overview } = r;
  return { ...overview, recent: isoAll(r.recent ?? []) };
}

export interface MemoryDeps {
  store: Store;
  blobs: BlobStore;
  /** Semantic recall, when configured and the database holds vectors. */
  semantic?: Semantic | undefined;
}

/** A vector as Postgres (pgvector) reads it. */
export function vectorLiteral(vector: number[]): string {
  return `[${vector.join(',')}]`;
}

/**
 * The text an entry is embedded from: a plan's title and steps, any other entry's content and
 * rationale. Writes, plan changes and `cairn embed` all use it, so one entry gets one vector
 * whichever way it was made.
 */
export function embeddingText(e: {
  content?: string | undefined;
  rationale?: string | null | undefined;
  title?: string | null | undefined;
  steps?: { text: string }[] | null | undefined;
}): string {
  const parts =
    e.title != null || e.steps ? [e.title, ...(e.steps ?? []).map((s) => s.text)] : [e.content, e.rationale];
  return parts.filter(Boolean).join('\n');
}

/** How each write tool maps onto an entry kind, its ledger op and its default scope. */
const WRITES = {
  remember: { kind: 'memory', op: 'remember', defaultScope: null, dedup: true },
  observe: { kind: 'observation', op: 'observe', defaultScope: null, dedup: false },
  decide: { kind: 'decision', op: 'decide', defaultScope: null, dedup: false },
  note: { kind: 'note', op: 'note', defaultScope: 'agent', dedup: false },
} as const;
export type WriteTool = keyof typeof WRITES;

/** Most org ids a process remembers for its keys (an org id never changes for a key). */
const ORG_CACHE_SIZE = 10_000;

export function createMemoryService(deps: MemoryDeps) {
  const { store, blobs, semantic } = deps;
  const orgOfKey = new Map<string, string>();

  /**
   * The vector of a text, as store arguments (`embedding`, `embedding_model`); none when semantic
   * recall is off or its provider fails, and the call goes on without it.
   */
  async function embedding(text: string | undefined): Promise<EmbeddingArgs> {
    if (!semantic || !text?.trim()) return {};
    const vector = await semantic.vectorOf(text);
    return vector ? { embedding: vectorLiteral(vector), embedding_model: semantic.model } : {};
  }

  async function orgOf(keyHash: string): Promise<string> {
    const cached = orgOfKey.get(keyHash);
    if (cached) return cached;
    const { org_id } = await store.whoami(keyHash);
    if (orgOfKey.size >= ORG_CACHE_SIZE) orgOfKey.clear();
    orgOfKey.set(keyHash, org_id);
    return org_id;
  }

  return {
    async write(tool: WriteTool, who: CallIdentity, input: WriteArgs) {
      // the id as the write arrives: recall reads a thread of work in id order, and writes sent
      // together reach the database in whatever order their secret scans and connections allow
      const id = uuidv7();
      const w = WRITES[tool];
      // before the embedding provider or the database sees any of it
      await refuseSecrets(entryFields(input));
      const r = await store.call('write', who, {
        ...input,
        id,
        kind: w.kind,
        op: w.op,
        default_scope: w.defaultScope,
        dedup: w.dedup,
        ...(await embedding(embeddingText(input))),
      });
      return {
        entry: withIsoTimes(r.entry),
        deduplicated: r.deduplicated === true,
        project: r.project,
        replacedFor: r.replaced_for ?? null,
      };
    },

    async plan(who: CallIdentity, input: PlanArgs) {
      const id = input.id ?? uuidv7(); // made as the plan arrives, as write makes its id
      const update = input.id !== undefined;
      if (!update && input.title === undefined) {
        throw new Invalid('title', 'required to create a plan (or pass id to update one)');
      }
      const change = [input.title, input.steps, input.status, input.claim_step, input.release_step];
      if (update && change.every((x) => x === undefined)) {
        throw new Invalid('id', 'an update needs at least one of title, steps, status, claim_step, release_step');
      }
      if (!update) {
        for (const f of ['expected_version', 'claim_step', 'claim_seconds', 'release_step'] as const) {
          if (input[f] !== undefined) throw new Invalid(f, 'applies to an update: pass the plan id');
        }
      }
      const status = input.status ?? (update ? undefined : DEFAULT_PLAN_STATUS);
      if (!update && !INITIAL_PLAN_STATUSES.includes(status as PlanStatus)) {
        throw new Invalid('status', `a new plan starts as draft or active, not ${status}`);
      }
      await refuseSecrets(entryFields(input));
      const r = await store.call('plan', who, {
        ...input,
        id,
        update,
        status,
        allowed_from: status ? allowedFrom(status) : [],
        final: FINAL_PLAN_STATUSES,
        // a change of status alone keeps the plan's vector
        ...(await embedding(embeddingText({ title: input.title, steps: input.steps }))),
      });
      return { entry: withIsoTimes(r.entry), project: r.project };
    },

    async recall(who: CallIdentity, input: RecallArgs) {
      const ranked = rankedQuery(input.query);
      const vector = await embedding(ranked.query);
      const r = await store.call('recall', who, { ...input, ...byAgent(input.agent), ...ranked, ...vector });
      // semantic: whether the entries were also searched by meaning (the query's vector was sent);
      // unheld: the query's telling words no hit holds, less those a hit answers by its kind
      // ("status" by a plan)
      const kinds = new Set(r.hits.map((h) => h.kind));
      return {
        hits: r.hits.map((h) => withIsoTimes(h)),
        project: r.project,
        scope: r.scope,
        semantic: vector.embedding !== undefined,
        unheld: (r.unheld ?? []).filter((w) => {
          const kind = kindAskedBy(w);
          return kind === undefined || !kinds.has(kind);
        }),
      };
    },

    async space(who: CallIdentity, input: SpaceArgs): Promise<SpaceResult> {
      if (input.view === 'history' && input.entry_id === undefined) {
        throw new Invalid('entry_id', 'is required for view history: the id of the entry whose history you want');
      }
      // enough candidates of each kind to fill the budget with short lines
      const perKind = Math.min(100, Math.max(10, Math.ceil(input.budget_chars / 200)));
      // one caller's read: what one statement is told it holds names only what its caller was sent
      const read = `${who.keyHash}\n${who.agent}\n${who.project ?? ''}\n${input.scope ?? ''}`;
      const brief = input.view === 'brief' ? { read, held: heldCandidates(read) } : undefined;
      const r = await store.call('space', who, {
        ...input,
        ...byAgent(input.agent),
        per_kind: perKind,
        known: brief?.held.known,
      });
      return { ...spaceView(r, input.budget_chars, brief), caller: r.caller };
    },

    async artifactPut(who: CallIdentity, input: ArtifactPutArgs) {
      await refuseSecrets(artifactFields({ ...input, from: input.bytes_from }));
      const orgId = await orgOf(who.keyHash);
      const id = uuidv7();
      const blobKey = `${orgId}/${id}`;
      await blobs.put(blobKey, input.bytes, input.content_type).catch((err) => {
        console.error('[cairn] artifact store: put failed', err instanceof Error ? err.message : err);
        throw new Unavailable('the artifact store could not take the bytes; nothing was stored; retry shortly');
      });
      try {
        const r = await store.call('artifact_put', who, {
          id,
          org_id: orgId,
          name: input.name,
          scope: input.scope,
          metadata: input.metadata,
          content_type: input.content_type,
          size: input.bytes.length,
          sha256: await sha256Hex(input.bytes),
          blob_key: blobKey,
        });
        return { artifact: withIsoTimes(r.artifact), project: r.project };
      } catch (err) {
        // refused: the bytes go. Unavailable: the row may have been written before the answer was
        // lost, so the bytes stay; if the row was not written, the sweep finds them.
        if (!(err instanceof Unavailable)) await blobs.delete([blobKey]).catch(() => {});
        throw err;
      }
    },

    async artifactGet(who: CallIdentity, input: ArtifactGetArgs) {
      const r = await store.call('artifact_get', who, { ...input });
      const artifact = withIsoTimes(r.artifact);
      const bytes = await blobs.get(r.blob_key).catch((err) => {
        console.error('[cairn] artifact store: get failed', err instanceof Error ? err.message : err);
        throw new Unavailable('the artifact store could not be read; retry shortly');
      });
      if (!bytes) throw new NotFound(`the bytes of artifact ${artifact.id} are missing from storage`);
      return { artifact, bytes, project: r.project };
    },

    async forget(who: CallIdentity, input: ForgetArgs) {
      const r = await store.call('forget', who, { ids: input.ids, reason: input.reason, field: input.field });
      // forgotten: the rows are gone; bytes the blob store fails to delete now, the sweep deletes
      await blobs.delete(r.blob_keys).catch((err) => {
        console.error('[cairn] forget: artifact bytes left for the sweep', err instanceof Error ? err.message : err);
      });
      return { forgotten: r.forgotten, not_found: r.not_found, forgotten_before: r.forgotten_before };
    },
  };
}

export type MemoryService = ReturnType<typeof createMemoryService>;

/** An author filter as names are stored: NFC (src/domain/agents.ts), so `é` either way finds the agent. */
const byAgent = (agent: string | undefined) => (agent === undefined ? {} : { agent: agent.normalize('NFC') });
