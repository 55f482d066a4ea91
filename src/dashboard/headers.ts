/**
 * The dashboard's security headers. Hono's secure-headers sets the fixed ones. The
 * Content-Security-Policy is set here instead, once the page is rendered: it carries a nonce per
 * response for the page's one style sheet and one script, and a page may widen `form-action` —
 * the consent form posts to the dashboard, which redirects the browser to the client's redirect
 * URI, and browsers apply form-action to that redirect too; the target is known only once the
 * page has checked the client, while secure-headers builds its policy before the handler runs.
 */
import type { MiddlewareHandler } from 'hono';
import { secureHeaders } from 'hono/secure-headers';
import { randomToken } from '../domain/crypto';
import type { DashboardEnv } from './context';

/** Hono's secure headers, with the dashboard's choices. */
export const fixedSecurityHeaders = (): MiddlewareHandler =>
  secureHeaders({
    referrerPolicy: 'same-origin',
    xFrameOptions: 'DENY',
    // whether a host is HTTPS-only, for how long and with which subdomains is the operator's
    // call (self-hosted installs run on plain HTTP too), made at their proxy
    strictTransportSecurity: false,
    // the consent page hands the browser to the client's redirect URI; a client that opened it
    // in a popup keeps its window.opener
    crossOriginOpenerPolicy: false,
  });

/** A nonce per response, then the policy that allows only it: nothing else loads, nothing frames the page. */
export const contentSecurityPolicy = (): MiddlewareHandler<DashboardEnv> => async (c, next) => {
  const nonce = randomToken(16);
  c.set('nonce', nonce);
  await next();
  const formAction = ["'self'", c.get('formTarget')].filter(Boolean).join(' ');
  c.header(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action ${formAction}; frame-ancestors 'none'; base-uri 'none'`,
  );
  c.header('Cache-Control', 'no-store');
};
