/**
 * Cross-site request forgery, refused three ways (docs/design.md, "Dashboard"):
 * - a form posted from another site is refused (403) before anything else, by Hono's csrf;
 * - every signed-in form carries the session's own random token;
 * - the sign-in and sign-up forms, shown before there is a session, carry a double-submit token
 *   (an HttpOnly, SameSite=Strict cookie and the same value in the form).
 */
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { csrf } from 'hono/csrf';
import { randomToken } from '../domain/crypto';
import { Forbidden } from '../domain/errors';
import type { DashboardSession } from '../domain/ports';
import { type DashboardEnv, formOf } from './context';

const FORM_COOKIE = 'cairn_form';

/**
 * Middleware: a form POST passes when the browser says it is same-origin (Sec-Fetch-Site) or
 * its Origin names the dashboard's host. The host, not the whole origin: behind a proxy that ends
 * TLS the request URL is http: while the browser's Origin is https:. An Origin of "null" (sent by
 * a page whose referrer policy hides its origin) goes on to the form tokens, which refuse a
 * forgery; a malformed Origin is refused (URL.parse gives null: a 403, not an exception). A POST
 * without Origin is refused: browsers always send one with a POST.
 */
export const sameSiteForms = (): MiddlewareHandler =>
  csrf({ origin: (origin, c) => origin === 'null' || URL.parse(origin)?.host === new URL(c.req.url).host });

/** Throws Forbidden unless a posted form carries the session's token. */
export async function checkSessionToken(c: Context, session: DashboardSession): Promise<void> {
  if (c.req.method !== 'POST') return;
  if ((await formOf(c))('_csrf') !== session.csrf) {
    throw new Forbidden('the form has expired; reload the page and try again');
  }
}

/** Middleware: a form posted with a session must carry the session's token (403 otherwise). */
export const sessionFormToken = (): MiddlewareHandler<DashboardEnv> => async (c, next) => {
  const session = c.get('session');
  if (session) await checkSessionToken(c, session);
  await next();
};

/** The double-submit token of a form shown without a session: set as a cookie, returned for the form. */
export function anonymousFormToken(c: Context<DashboardEnv>): string {
  const value = getCookie(c, FORM_COOKIE) ?? randomToken();
  setCookie(c, FORM_COOKIE, value, { httpOnly: true, sameSite: 'Strict', path: '/dashboard', secure: c.get('https') });
  return value;
}

/** Middleware: a form posted without a session must carry its cookie's token; else `refuse` answers. */
export const anonymousForm =
  (refuse: (c: Context<DashboardEnv>) => Response | Promise<Response>): MiddlewareHandler<DashboardEnv> =>
  async (c, next) => {
    const sent = (await formOf(c))('_csrf');
    if (!sent || sent !== getCookie(c, FORM_COOKIE)) return refuse(c);
    await next();
  };

/** Drops the anonymous forms' token once signed in. */
export function dropAnonymousFormToken(c: Context): void {
  deleteCookie(c, FORM_COOKIE, { path: '/dashboard' });
}
