/**
 * Plans: what an org may use (docs/design.md, "Plans and limits"). A null limit is no limit; the
 * operator creates plans, marks one the default and puts orgs on plans (CLI and /admin).
 */
import { z } from 'zod';

/** The longest entry text the contract allows, in characters; a plan's `entry_chars` may only lower it. */
export const MAX_CONTENT = 16_384;

const limit = (min: number, max = Number.MAX_SAFE_INTEGER) =>
  z.number().int().min(min).max(max).nullable().default(null);

export const planInput = z.object({
  id: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, 'a plan id is 1–64 lower-case letters, digits, - and _, such as "team"'),
  requests_per_minute: limit(1, 1_000_000),
  tool_calls_per_month: limit(0),
  stored_bytes: limit(0),
  artifact_bytes: limit(1),
  entry_chars: limit(1, MAX_CONTENT),
  is_default: z.boolean().default(false),
});
export type PlanInput = z.output<typeof planInput>;

export interface ServicePlan extends PlanInput {
  /** Orgs on this plan by name (not counting those on it as the default). */
  orgs: number;
  created_at: string;
}

/** An org's plan and its use (see cairn_usage_for). */
export interface Usage {
  plan: string | null;
  requests_per_minute: number | null;
  tool_calls_per_month: number | null;
  tool_calls_this_month: number;
  resets_at: string;
  stored_bytes_limit: number | null;
  stored_bytes: number;
  artifact_bytes: number | null;
  entry_chars: number | null;
  /** Newest first; days without a tool call are absent. */
  days?: { day: string; calls: number; stored_bytes: number }[];
}
