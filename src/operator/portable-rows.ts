/**
 * What an import trusts of an export's rows (docs/design.md, "Export and import"): nothing it has
 * not checked. Each row is held to the rules the tools apply to what they store (the same zod
 * pieces, src/domain/schemas.ts); each entry and artifact to the ledger events that wrote it in
 * ./portable-writes.ts.
 */
import { z } from 'zod';
import { MAX_CONTENT } from '../domain/limits';
import { artifactPutInput, planInput } from '../domain/operations';
import { PLAN_STATUSES, STEP_STATUSES } from '../domain/plans';
import { anchors, content, id, isoTime, jsonHasNul, kind, metadata, scope, tags, text } from '../domain/schemas';

type Row = Record<string, unknown>;
export type RowPart = 'project' | 'entry' | 'version' | 'artifact' | 'event';

const sha = z.string().regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in hex');
const agent = text(1, 128).refine((s) => !/[\u0000-\u001f\u007f-\u009f]/.test(s), 'must be printable characters only');
const time = isoTime;
const opt = <T extends z.ZodType>(s: T) => s.nullable().optional();
/** A plan step as stored: the tool's step, with its claim. */
const storedStep = z.strictObject({
  text: text(1, 1024),
  status: z.enum(STEP_STATUSES),
  claimed_by: agent.optional(),
  claim_expires_at: time.optional(),
});
const steps = z.array(storedStep).max(100, 'at most 100 steps');
/** A plan's content is its title and steps (cairn_plan_content): longer than an entry's text may be. */
const planText = text(1, 512 + 100 * 1100);

const entryRow = z.object({
  id,
  kind,
  content: planText,
  content_sha256: sha,
  rationale: opt(text(1, MAX_CONTENT)),
  source: opt(text(1, 512)),
  title: opt(planInput.shape.title.unwrap()),
  status: opt(z.enum(PLAN_STATUSES)),
  steps: opt(steps),
  tags: opt(tags),
  scope,
  project: opt(text(1, 1024)),
  agent,
  metadata: opt(metadata),
  created_at: time,
  updated_at: time,
  version: z.number().int().min(1),
  paths: opt(anchors.paths.unwrap()),
  commit: opt(anchors.commit.unwrap()),
  confirmed_at: opt(time),
  updated_by: opt(agent),
  last_change: opt(text(1, 1 << 16)),
  supersedes: opt(id),
  superseded_by: opt(id),
  expires_at: opt(time),
});

const versionRow = z.object({
  entry_id: id,
  version: z.number().int().min(1),
  title: planInput.shape.title.unwrap(),
  status: z.enum(PLAN_STATUSES),
  steps,
  content: planText,
  updated_at: time,
  updated_by: opt(agent),
});

const artifactRow = z.object({
  id,
  name: artifactPutInput.shape.name,
  version: z.number().int().min(1),
  size: z.number().int().min(0),
  sha256: sha,
  content_type: artifactPutInput.shape.content_type.unwrap(),
  scope,
  project: opt(text(1, 1024)),
  agent,
  metadata: opt(metadata),
  created_at: time,
});

const projectRow = z.object({ canonical: text(1, 1024), created_at: time });

const ROWS: Record<Exclude<RowPart, 'event'>, z.ZodType> = {
  project: projectRow,
  entry: entryRow,
  version: versionRow,
  artifact: artifactRow,
};

/** A plan's content from its title and steps, as cairn_plan_content makes it. */
export function planContent(title: string, planSteps: { text: string; status: string }[]): string {
  return title + planSteps.map((s) => `\n- [${s.status}] ${s.text}`).join('');
}

/** Why a row of `part` cannot be stored, or undefined: the tools' rules, field by field. */
export function rowProblem(part: RowPart, row: Row): string | undefined {
  if (Object.entries(row).some(([k, v]) => jsonHasNul(k) || jsonHasNul(v)))
    return 'holds a NUL character, an unpaired surrogate or nesting deeper than 32';
  if (part === 'event') return undefined; // its hash covers it: the chain check refuses a changed one
  const parsed = ROWS[part].safeParse(row);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return `${issue?.path.join('.') || 'the row'}: ${issue?.message}`;
  }
  if (part === 'entry' || part === 'version') return planProblem(row);
  return undefined;
}

function planProblem(row: Row): string | undefined {
  if (row.kind !== undefined && row.kind !== 'plan') {
    if (row.title != null || row.steps != null || row.status != null)
      return "title, steps and status are a plan's only";
    const c = content.safeParse(row.content);
    return c.success ? undefined : `content: ${c.error.issues[0]?.message}`;
  }
  if (typeof row.title !== 'string' || !Array.isArray(row.steps) || typeof row.status !== 'string') {
    return 'a plan has a title, steps and a status';
  }
  if (row.content !== planContent(row.title, row.steps as { text: string; status: string }[])) {
    return "content: a plan's content is its title and steps, and these differ";
  }
  return undefined;
}
