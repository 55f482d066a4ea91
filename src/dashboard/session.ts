/**
 * Dashboard sessions: a random token in an HttpOnly, SameSite=Lax cookie (`__Host-` prefixed and
 * Secure on HTTPS), of which only the SHA-256 is stored; 14 days.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { randomToken, sha256Hex } from '../domain/crypto';
import type { DashboardSession, Store } from '../domain/ports';
import { issuerOf } from '../oauth/routes';
import { type DashboardEnv, type SignedInEnv, toSignIn } from './context';
import { checkSessionToken, dropAnonymousFormToken } from './csrf';

const COOKIE = 'cairn_session';
const SESSION_SECONDS = 14 * 24 * 3600;

/** The cookie's options: `__Host-` prefixed (Secure, Path=/, no Domain) on HTTPS. */
const cookieOf = (c: Context<DashboardEnv>) =>
  c.get('https') ? ({ prefix: 'host', secure: true } as const) : ({ prefix: undefined, secure: false } as const);

/**
 * Middleware: whether the dashboard is reached over HTTPS (CAIRN_BASE_URL, else the request), and
 * the session the request's cookie names, if any.
 */
export function sessions(store: Store, publicUrl: string | undefined): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    c.set('https', issuerOf(publicUrl, c).startsWith('https:'));
    const token = getCookie(c, COOKIE, cookieOf(c).prefix);
    const hash = token ? await sha256Hex(token) : '';
    c.set('tokenHash', hash);
    c.set('session', hash ? await store.dashboard.session(hash) : null);
    await next();
  };
}

/**
 * Middleware of the pages for the signed-in: anyone else is sent to sign in (also a session with
 * no org shown, when the page needs one), and a posted form must carry the session's token.
 */
export function signedIn(opts: { org?: boolean } = {}): MiddlewareHandler<SignedInEnv> {
  return async (c, next) => {
    // typed as present for the handlers after this one; here it may be missing
    const session: DashboardSession | null = c.get('session');
    if (!session || (opts.org && !session.org_id)) return toSignIn(c);
    await checkSessionToken(c, session);
    await next();
  };
}

/**
 * Signs the user in: a new session, its cookie, and the anonymous forms' token dropped. Returns
 * the hash the session is stored under.
 */
export async function startSession(c: Context<DashboardEnv>, store: Store, userId: string): Promise<string> {
  const token = randomToken();
  const hash = await sha256Hex(token);
  await store.dashboard.startSession(hash, userId, randomToken(), SESSION_SECONDS);
  setCookie(c, COOKIE, token, { httpOnly: true, sameSite: 'Lax', path: '/', maxAge: SESSION_SECONDS, ...cookieOf(c) });
  dropAnonymousFormToken(c);
  return hash;
}

/** Signs out: the session ends (when there is one) and its cookie goes. */
export async function endSession(c: Context<DashboardEnv>, store: Store): Promise<void> {
  if (c.get('session')) await store.dashboard.endSession(c.get('tokenHash'));
  deleteCookie(c, COOKIE, { path: '/', ...cookieOf(c) });
}
