/**
 * One typed contract per operation: each tool's zod input is declared here, once, and is the
 * source of the type the memory service takes (`Args<…>`, its output without the MCP-only
 * `project` override). `StoreOps` types the store's `call` per operation: what the service sends
 * to the operation's SQL function and what that function returns.
 */
import { z } from 'zod';
import { MAX_CONTENT } from './limits';
import { isMediaType, MAX_MEDIA_TYPE } from './media-type';
import { PLAN_STATUSES } from './plans';
import type { QueryPart } from './query';
import {
  type Artifact,
  anchorPath,
  anchors,
  content,
  type Entry,
  entryOut,
  entryRef,
  eventOut,
  type Hit,
  id,
  isoTime,
  kind,
  metadata,
  project,
  type Scope,
  scope,
  step,
  tags,
  text,
  ttlSeconds,
  writeOptions,
} from './schemas';

/** What the service takes for an operation: the tool's arguments without the project override. */
export type Args<S extends z.ZodType> = Omit<z.output<S>, 'project'>;

/** An earlier memory, observation or decision a new one replaces (a convention, a workaround, a reversed decision). */
const supersedes = entryRef.optional().describe('Id of an entry this replaces; it leaves default recall.');

export const rememberInput = z.object({
  content,
  supersedes,
  ttl_seconds: ttlSeconds.optional(),
  ...writeOptions,
});

export const observeInput = z.object({
  content,
  source: text(1, 512).optional().describe('Command, URL, file or tool it came from.'),
  supersedes: entryRef.optional().describe('What it replaces (a fix: the failure).'),
  ttl_seconds: ttlSeconds.optional(),
  ...writeOptions,
});

export const decideInput = z.object({
  content: content.describe('The decision.'),
  rationale: text(1, MAX_CONTENT).describe('Why it was decided.'),
  supersedes,
  ...writeOptions,
});

export const noteInput = z.object({
  content,
  ...anchors,
  tags: tags.optional(),
  metadata: metadata.optional(),
  scope: scope.optional().describe('agent (default): only you; project or org shares it.'),
  project: project.optional(),
});

/** remember, observe, decide and note: one new entry each. */
export type WriteArgs =
  | Args<typeof rememberInput>
  | Args<typeof observeInput>
  | Args<typeof decideInput>
  | Args<typeof noteInput>;

export const planInput = z.object({
  id: entryRef.optional().describe('Plan to update; omit to create.'),
  title: text(1, 512).optional().describe('Required to create.'),
  steps: z
    .array(step)
    .max(100, 'at most 100 steps')
    .optional()
    .describe('The whole list; replaces the old one on update.'),
  status: z.enum(PLAN_STATUSES).optional().describe('Starts active unless draft; done needs no todo/doing step.'),
  expected_version: z.number().int().min(1).optional().describe('Refused unless the plan is at this version.'),
  claim_step: z.number().int().min(0).optional().describe('Step index (0-based) to take on.'),
  claim_seconds: z.number().int().min(1).max(86_400).optional().describe('Default 900.'),
  release_step: z.number().int().min(0).optional().describe('Index of your claimed step to give up.'),
  ...writeOptions,
});
export type PlanArgs = Args<typeof planInput>;

export const recallInput = z.object({
  query: text(0, 4096).describe(
    'The subject as a short question or keywords (names, errors), not the whole task; empty: most recent.',
  ),
  kinds: z.array(kind).max(5).optional().describe('Only these kinds.'),
  tags: tags.optional().describe('Only entries with any of these tags.'),
  agent: text(1, 128).optional().describe('Only entries by this agent.'),
  since: isoTime.optional().describe('Created at or after (ISO 8601).'),
  until: isoTime.optional().describe('Created before (ISO 8601).'),
  limit: z.number().int().min(1).max(100).default(10).describe('Most hits.'),
  include_superseded: z.boolean().default(false).describe('Include replaced entries.'),
  paths: z.array(anchorPath).max(50).optional().describe('Only entries about these files.'),
  as_of: isoTime.optional().describe('The memory as it stood then.'),
  scope: scope.optional().describe('project (default): it and org-wide; org: all shared; agent: only yours.'),
  project: project.optional(),
});
export type RecallArgs = Args<typeof recallInput>;

/** The parts of a brief, in the order it shows them. */
export const BRIEF_SECTIONS = ['plans', 'decisions', 'conventions', 'failures', 'stale'] as const;
export type BriefSection = (typeof BRIEF_SECTIONS)[number];

/** What a brief candidate carries of its entry (sql/tools/cairn_brief.sql): what ranking and lines read. */
export type BriefEntry = Pick<
  Entry,
  | 'id'
  | 'kind'
  | 'content'
  | 'rationale'
  | 'title'
  | 'status'
  | 'steps'
  | 'tags'
  | 'project'
  | 'agent'
  | 'created_at'
  | 'updated_at'
> &
  Partial<Pick<Entry, 'stale' | 'paths' | 'commit'>>;

/**
 * A brief candidate as the store sends it (sql/tools/cairn_brief.sql): its section, then its
 * entry's fields in this order, times as Postgres writes them, then the version of the entry's row
 * (briefCandidates in domain/brief.ts reads it), its stale mark, its paths and commit; or, for a candidate the server said it holds at
 * that version (`known`), its section and id alone.
 */
export type BriefRow = BriefFullRow | [section: BriefSection, id: string];

export type BriefFullRow = [
  section: BriefSection,
  id: string,
  kind: Entry['kind'],
  content: string,
  rationale: string | null,
  title: string | null,
  status: string | null,
  steps: Entry['steps'],
  tags: string[],
  project: string | null,
  agent: string,
  created_at: string,
  updated_at: string,
  version: string,
  stale: Entry['stale'],
  paths: string[] | null,
  commit: string | null,
];

export const SPACE_VIEWS = ['overview', 'projects', 'agents', 'ledger', 'brief', 'history'] as const;

export const spaceInput = z.object({
  view: z.enum(SPACE_VIEWS).default('overview').describe('What to show (see above).'),
  entry_id: entryRef.optional().describe("ledger: this entry's events; history: required."),
  budget_chars: z.number().int().min(500).max(50_000).default(4000).describe('brief: its size limit.'),
  agent: text(1, 128).optional().describe('ledger: only this agent.'),
  since: isoTime.optional().describe('ledger: at or after (ISO 8601).'),
  limit: z.number().int().min(1).max(500).default(50).describe('ledger: most events.'),
  scope: scope.optional().describe('overview, brief: as in recall.'),
  project: project.optional(),
});
export type SpaceArgs = Args<typeof spaceInput>;

/** What `space` finds, by view (cairn_space); the tool adds the view, the caller and the project. */
export const spaceFound = z.object({
  org: z.object({ id: z.string(), name: z.string() }).optional(),
  /** overview: whether the project given (argument or header) is a git remote URL or an absolute path. */
  project_recognised: z.boolean().optional(),
  scope: scope.optional(),
  counts: z.record(z.string(), z.number()).optional(),
  artifacts: z.object({ count: z.number(), bytes: z.number() }).optional(),
  stored_bytes: z.number().optional(),
  quota: z
    .object({
      plan: z.string().nullable().describe('null: no plan, nothing limited'),
      requests_per_minute: z.number().nullable().describe('per API key; null: no rate limit'),
      tool_calls_per_month: z.number().nullable(),
      tool_calls_this_month: z.number(),
      resets_at: z.string().describe('when the monthly count starts again'),
      stored_bytes_limit: z.number().nullable(),
      stored_bytes: z.number(),
      artifact_bytes: z.number().nullable(),
      entry_chars: z.number().nullable(),
    })
    .optional(),
  recent: z.array(eventOut).optional(),
  projects: z.array(z.object({ project: z.string(), created_at: z.string(), entries: z.number() })).optional(),
  agents: z
    .array(z.object({ agent: z.string(), events: z.number(), first_at: z.string(), last_at: z.string() }))
    .optional(),
  events: z.array(eventOut).optional(),
  brief: z
    .object({
      budget_chars: z.number(),
      chars: z.number(),
      sections: z.array(
        z.object({
          section: z.enum(BRIEF_SECTIONS),
          items: z.array(
            z.object({
              id: z.string(),
              kind,
              text: z.string(),
              agent: z.string(),
              at: z.string().describe('when it was written (a plan: last updated)'),
              paths: z.array(z.string()).nullable(),
              commit: z.string().nullable(),
            }),
          ),
        }),
      ),
      left_out: z.number(),
    })
    .optional(),
  history: z
    .object({
      entry: entryOut,
      versions: z.array(
        z.object({
          version: z.number(),
          at: z.string(),
          agent: z.string(),
          op: z.string(),
          content_sha256: z.string().nullable(),
        }),
      ),
      chain: z.array(entryOut),
      /** Of an org entry: the projects that replaced it for themselves only (contract §4). */
      replaced_in: z.array(z.object({ project: z.string(), id: z.string() })),
      events: z.array(eventOut),
    })
    .optional(),
});
export type SpaceFound = z.output<typeof spaceFound>;

/** Whom a call acted as: the agent, and whether it came from the credential (cairn_agent). */
export interface SpaceCaller {
  agent: string;
  verified: boolean;
}

const artifactName = text(1, 256).refine(
  (s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s),
  'must not contain control characters',
);

export const artifactPutInput = z.object({
  name: artifactName.describe('A label, not a server path.'),
  content: z.string().optional().describe('The file as UTF-8 text.'),
  content_base64: z.string().optional().describe('Or its bytes, base64.'),
  content_type: z
    .string()
    .max(MAX_MEDIA_TYPE, `must be at most ${MAX_MEDIA_TYPE} characters`)
    .refine(
      (s) => s.length > MAX_MEDIA_TYPE || isMediaType(s),
      'must be a media type, type/subtype then optional ; name=value parameters, such as text/markdown or text/plain; charset=utf-8 (printable ASCII only: no control or line-break characters)',
    )
    .optional()
    .describe('Media type, e.g. text/markdown.'),
  metadata: metadata.optional(),
  scope: scope.optional(),
  project: project.optional(),
});
/**
 * The service takes the decoded bytes and the media type decided, instead of the two encodings,
 * and which of the two the bytes came in (`bytes_from`: the field a refusal names).
 */
export type ArtifactPutArgs = Omit<Args<typeof artifactPutInput>, 'content' | 'content_base64' | 'content_type'> & {
  bytes: Uint8Array;
  bytes_from: 'content' | 'content_base64';
  content_type: string;
};

export const artifactGetInput = z.object({
  id: id.optional().describe('An artifact version id.'),
  name: text(1, 256).optional().describe('Or its name.'),
  version: z.number().int().min(1).optional().describe('With name: this version, not the latest.'),
  scope: scope.optional().describe('With name: only this scope.'),
  project: project.optional(),
});
export type ArtifactGetArgs = Args<typeof artifactGetInput>;

export const forgetInput = z.object({
  id: entryRef.optional().describe('An entry or artifact version.'),
  ids: z.array(entryRef).min(1).max(100, 'at most 100 ids per call').optional().describe('Or several of them.'),
  reason: text(1, 1024).optional().describe('Why; kept in the ledger.'),
  project: project.optional().describe('Not needed: ids span projects.'),
});
/** Who forgot an id before, when and why: the reader's view of its `forget` event in the ledger. */
export interface ForgetEvent {
  id: string;
  by: string;
  actor_kind: string | null;
  at: string;
  reason: string | null;
}
/** One id or many become a list; `field`: the argument they came in (what a refusal names). */
export type ForgetArgs = { ids: string[]; reason?: string | undefined; field?: 'id' | 'ids' };

/** A query's vector, when semantic recall is on (store arguments of write, plan and recall). */
export interface EmbeddingArgs {
  embedding?: string;
  embedding_model?: string;
}

/** Each store operation: what its SQL function takes (as JSON) and returns. */
export interface StoreOps {
  write: {
    args: WriteArgs &
      EmbeddingArgs & { id: string; kind: string; op: string; default_scope: Scope | null; dedup: boolean };
    /** replaced_for: the project in which the entry replaced an org entry, for that project only. */
    result: { entry: Entry; deduplicated?: boolean; project: string | null; replaced_for?: string | null };
  };
  plan: {
    args: PlanArgs &
      EmbeddingArgs & {
        id: string;
        update: boolean;
        status: string | undefined;
        allowed_from: readonly string[];
        final: readonly string[];
      };
    result: { entry: Entry; project: string | null };
  };
  recall: {
    /**
     * groups: the query's words with their synonyms and verb forms; prefer_kinds: the kinds it asks
     * for; parts: its sentences, each with its own, when several hold a telling word (domain/query.ts).
     */
    args: RecallArgs &
      EmbeddingArgs &
      Partial<Omit<QueryPart, 'query'>> & { telling?: string[][]; parts?: QueryPart[] };
    /** unheld: the telling words no hit holds, as recall matches them (cairn_recall_for). */
    result: { hits: Hit[]; project: string | null; scope: Scope; unheld?: string[] };
  };
  space: {
    /**
     * per_kind: how many brief candidates of each kind to read; known: the candidates the server
     * holds (id -> row version), which come back as their section and id alone when unchanged.
     */
    args: SpaceArgs & { per_kind: number; known?: Record<string, string> };
    result: Omit<SpaceFound, 'brief'> & {
      project?: string | null;
      candidates?: BriefRow[];
      caller: SpaceCaller;
    };
  };
  artifact_put: {
    args: Omit<ArtifactPutArgs, 'bytes' | 'bytes_from'> & {
      id: string;
      org_id: string;
      size: number;
      sha256: string;
      blob_key: string;
    };
    result: { artifact: Artifact; project: string | null };
  };
  artifact_get: {
    args: ArtifactGetArgs;
    result: { artifact: Artifact; blob_key: string; project: string | null };
  };
  forget: {
    args: ForgetArgs;
    result: { forgotten: string[]; not_found: string[]; forgotten_before: ForgetEvent[]; blob_keys: string[] };
  };
}
export type StoreOp = keyof StoreOps;
