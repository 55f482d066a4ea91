/** @jsxImportSource hono/jsx */
/**
 * A plan as a board of its steps: one column per step status (todo, doing, done, skipped), each
 * step with its number, its text and, while its claim holds, who claimed it and until when (a
 * claim past its time holds nothing and is not shown). Four columns on a wide screen; on a phone
 * the same lists, one after another, grouped by status under their headings.
 */
import { STEP_STATUSES } from '../domain/plans';
import type { Entry, PlanStep } from '../domain/schemas';
import { AgentName } from './agent-name';
import { when } from './components';

/** The agent holding `step` at `now`, and until when; null when no live claim. */
export function liveClaim(step: PlanStep, now: number): { by: string; until: string } | null {
  if (!step.claimed_by || !step.claim_expires_at) return null;
  return Date.parse(step.claim_expires_at) > now ? { by: step.claimed_by, until: step.claim_expires_at } : null;
}

/** The plan's header facts and its board. `now`: the time claims are judged at (ms). */
export function PlanBoard(p: { plan: Entry; updatedBy: string | null; lastChange: string | null; now: number }) {
  const e = p.plan;
  const steps = (e.steps ?? []).map((s, i) => ({ ...s, index: i }));
  const done = steps.filter((s) => s.status === 'done').length;
  return (
    <>
      <h2>{e.title}</h2>
      <dl class="facts card">
        <dt>Status</dt>
        <dd>
          <span class="badge accent">{e.status}</span> {done} of {steps.length} steps done
        </dd>
        <dt>Version</dt>
        <dd>{e.version}</dd>
        <dt>Last changed</dt>
        <dd>
          {when(e.updated_at)} UTC by <AgentName name={p.updatedBy ?? e.agent} />
          {p.lastChange ? ` (${p.lastChange})` : ''}
        </dd>
      </dl>
      <div class="board">
        {STEP_STATUSES.map((status) => {
          const here = steps.filter((s) => s.status === status);
          return (
            <section class={`column ${status}`} aria-labelledby={`col-${status}`}>
              <h3 id={`col-${status}`}>
                {status} <span class="count">({here.length})</span>
              </h3>
              {here.length === 0 ? (
                <p class="muted">No step {status === 'todo' ? 'to do' : status}.</p>
              ) : (
                <ol class="plain">
                  {here.map((s) => {
                    const claim = liveClaim(s, p.now);
                    return (
                      <li class="step">
                        <p>
                          <span class="muted">#{s.index}</span> {s.text}
                        </p>
                        {claim ? (
                          <p class="claim">
                            claimed by <AgentName name={claim.by} strong /> until{' '}
                            <time datetime={claim.until}>{when(claim.until)} UTC</time>
                          </p>
                        ) : null}
                      </li>
                    );
                  })}
                </ol>
              )}
            </section>
          );
        })}
      </div>
    </>
  );
}
