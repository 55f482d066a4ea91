/** Plan status rules: draft → active → done | abandoned, draft → abandoned; done and abandoned end a plan. */
export const PLAN_STATUSES = ['draft', 'active', 'done', 'abandoned'] as const;
export type PlanStatus = (typeof PLAN_STATUSES)[number];

export const STEP_STATUSES = ['todo', 'doing', 'done', 'skipped'] as const;

export const FINAL_PLAN_STATUSES: readonly PlanStatus[] = ['done', 'abandoned'];

/** Statuses a new plan may start in; it starts `active` unless told (an agent plans what it does). */
export const INITIAL_PLAN_STATUSES: readonly PlanStatus[] = ['draft', 'active'];
export const DEFAULT_PLAN_STATUS: PlanStatus = 'active';

const MOVES: Record<PlanStatus, readonly PlanStatus[]> = {
  draft: ['active', 'abandoned'],
  active: ['done', 'abandoned'],
  done: [],
  abandoned: [],
};

/** The statuses from which `to` may be reached. */
export function allowedFrom(to: PlanStatus): PlanStatus[] {
  return PLAN_STATUSES.filter((from) => MOVES[from].includes(to));
}
