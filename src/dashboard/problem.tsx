/** @jsxImportSource hono/jsx */
/**
 * A page that could not be shown, as a dashboard page: an unknown address (404) or a refused or
 * failed request, said in words with a way back — with the navigation when signed in.
 */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import type { DashboardEnv } from './context';
import { Page } from './layout';

const TITLES: Partial<Record<number, string>> = {
  403: 'Not allowed',
  404: 'Page not found',
  409: 'That could not be done',
  422: 'That could not be done',
  500: 'Something went wrong',
};

/** A domain error's message ("no such key in this org") as a sentence. */
const sentence = (s: string) => `${s.charAt(0).toUpperCase()}${s.slice(1)}${/[.!?]$/.test(s) ? '' : '.'}`;

/** The problem page, answered with its status. */
export function problem(c: Context<DashboardEnv>, status: ContentfulStatusCode, message: string) {
  const session = c.get('session');
  return c.html(
    <Page title={TITLES[status] ?? 'That could not be done'} nonce={c.get('nonce')} session={session}>
      <p class="error" role="alert">
        {sentence(message)}
      </p>
      <p class="actions">
        {session ? (
          <a class="button" href="/dashboard">
            Back to the dashboard
          </a>
        ) : (
          <a class="button" href="/dashboard/signin">
            Sign in
          </a>
        )}
      </p>
    </Page>,
    status,
  );
}

/** The answer for an address under /dashboard that no page has. */
export const notFound = (c: Context<DashboardEnv>) =>
  problem(c, 404, `There is no dashboard page at ${new URL(c.req.url).pathname}.`);
