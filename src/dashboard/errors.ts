/** How the dashboard answers a failed action: the domain's errors in words a person can act on. */
import type { Context, ErrorHandler } from 'hono';
import { HTTPException } from 'hono/http-exception';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { CairnError, Forbidden, Invalid, NotFound, Unauthorized } from '../domain/errors';
import { type DashboardEnv, toSignIn } from './context';
import { problem } from './problem';

type Log = (message: string, err?: unknown) => void;

/** What to tell the user; an unexpected error is logged and said to have changed nothing. */
export function errorText(err: unknown, log: Log): string {
  if (err instanceof CairnError) return err.message.replace(/^\w+: /, '');
  log('dashboard action failed', err);
  return 'Something went wrong; nothing was changed. Try again.';
}

/** The HTTP status of a domain error (any other CairnError is a conflict; anything else a 500). */
export function errorStatus(err: unknown): ContentfulStatusCode {
  if (err instanceof Invalid) return 422;
  if (err instanceof Forbidden) return 403;
  if (err instanceof NotFound) return 404;
  return err instanceof CairnError ? 409 : 500;
}

/**
 * The dashboard's onError: a lost session goes to sign in; a refusal by Hono's own middleware
 * (csrf) keeps its answer; anything else is said on a dashboard page (src/dashboard/problem.tsx)
 * with its status.
 */
export function dashboardErrors(log: Log): ErrorHandler<DashboardEnv> {
  return (err, c: Context<DashboardEnv>) => {
    if (err instanceof Unauthorized) return toSignIn(c);
    if (err instanceof HTTPException) return err.getResponse();
    return problem(c, errorStatus(err), errorText(err, log));
  };
}
