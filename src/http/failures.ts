/**
 * Failed authentication, limited per client address and door (`mcp`: a wrong API key; `signin`: a
 * wrong dashboard password; `admin`: a wrong operator token), and the doors that make things for
 * anyone who asks, every attempt counted (`signup`: dashboard accounts; `register`: OAuth
 * clients). The database counts (cairn_auth_failure), so the limit holds across processes and
 * Workers isolates; each process remembers the addresses it saw blocked, so their
 * attempts are refused before any database work or password hashing.
 */
import { type LimitInfo, TooManyRequests } from '../domain/errors';
import type { Store } from '../domain/ports';

export const FAILURE_WINDOW_SECONDS = 15 * 60;
/** The doors where every attempt counts, not only a failed one: what each makes. */
const MADE: Record<string, string> = { signup: 'sign-ups', register: 'OAuth client registrations' };
const REMEMBERED = 10_000;

export interface FailureLimiter {
  /** Throws 429 when the bucket is blocked. */
  check(bucket: string): void;
  /** Records a failure; throws 429 when it was over the limit. */
  failed(bucket: string): Promise<void>;
  /** A door where every attempt counts: check, then record this one (throws 429 as those do). */
  attempt(bucket: string): Promise<void>;
}

/** `limit` failures per address per 15 minutes; 0: no limit. */
export function failureLimiter(store: Store, limit: number, now = () => Date.now()): FailureLimiter {
  const until = new Map<string, number>();
  const refuse = (retryAfter: number, bucket: string) => {
    const info: LimitInfo = {
      limit: 'auth_failures',
      plan: null,
      value: limit,
      used: limit,
      retry_after: retryAfter,
      resets_at: new Date(now() + retryAfter * 1000).toISOString().replace(/\.\d+Z$/, 'Z'),
      window: FAILURE_WINDOW_SECONDS,
    };
    const door = bucket.slice(0, bucket.indexOf(':'));
    const what = MADE[door];
    return new TooManyRequests(
      what
        ? `Too many ${what} from this address (${limit} per ${FAILURE_WINDOW_SECONDS / 60} minutes); retry in ${retryAfter} s.`
        : `Too many failed authentication attempts from this address (${limit} per ${FAILURE_WINDOW_SECONDS / 60} minutes); retry in ${retryAfter} s with the right credentials.`,
      info,
    );
  };
  const limiter: FailureLimiter = {
    check(bucket) {
      if (limit === 0) return;
      const t = until.get(bucket);
      if (t === undefined) return;
      if (t <= now()) until.delete(bucket);
      else throw refuse(Math.ceil((t - now()) / 1000), bucket);
    },
    async failed(bucket) {
      if (limit === 0) return;
      const r = await store.authFailure(bucket, limit, FAILURE_WINDOW_SECONDS);
      if (r.blocked) {
        until.delete(bucket);
        until.set(bucket, now() + r.retry_after * 1000);
        if (until.size > REMEMBERED) until.delete(until.keys().next().value as string);
      }
      if (r.refused) throw refuse(r.retry_after, bucket);
    },
    async attempt(bucket) {
      limiter.check(bucket);
      await limiter.failed(bucket);
    },
  };
  return limiter;
}
