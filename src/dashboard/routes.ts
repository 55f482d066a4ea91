/**
 * /dashboard: accounts (and the first start's setup link), orgs, Settings (API keys, members,
 * connected apps), Memory, Artifacts, Ledger, Usage, and the OAuth consent step. Each page is its
 * routes and its view (src/dashboard/pages/); here they are put behind what every page shares: the
 * security headers, the refusal of cross-site form posts, and the session.
 */
import { Hono } from 'hono';
import type { DashboardDeps, DashboardEnv } from './context';
import { sameSiteForms } from './csrf';
import { dashboardErrors } from './errors';
import { contentSecurityPolicy, fixedSecurityHeaders } from './headers';
import { appsPage } from './pages/apps';
import { artifactsPage } from './pages/artifacts';
import { consentPage } from './pages/consent';
import { entryPage } from './pages/entry';
import { invitationPage } from './pages/invitation';
import { keysPage } from './pages/keys';
import { ledgerPage } from './pages/ledger';
import { membersPage } from './pages/members';
import { memoryPage } from './pages/memory';
import { orgsPage } from './pages/orgs';
import { setupPage } from './pages/setup';
import { signinPage } from './pages/signin';
import { signupPage } from './pages/signup';
import { usagePage } from './pages/usage';
import { notFound } from './problem';
import { sessions } from './session';

const PAGES = [
  signupPage,
  signinPage,
  setupPage,
  orgsPage,
  keysPage,
  membersPage,
  invitationPage,
  appsPage,
  memoryPage,
  entryPage,
  artifactsPage,
  ledgerPage,
  usagePage,
  consentPage,
];

/** The dashboard's Hono app, mounted at /dashboard. */
export function dashboardRoutes(deps: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  // in this order: every answer gets the headers, and a cross-site post is refused before the session is read
  app.use('*', fixedSecurityHeaders(), contentSecurityPolicy(), sameSiteForms(), sessions(deps.store, deps.publicUrl));
  for (const page of PAGES) app.route('/', page(deps));
  // the parent's notFound (JSON, for MCP clients) would answer otherwise: a sub-app's is not carried over
  app.all('*', notFound);
  app.onError(dashboardErrors(deps.log));
  return app;
}
