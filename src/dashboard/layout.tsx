/** @jsxImportSource hono/jsx */
/**
 * The dashboard's layout: plain server-rendered HTML (Hono JSX), semantic and keyboard-usable, the
 * one style sheet (./style.ts) and one tiny script (the copy buttons), both allowed by the
 * response's nonce (src/dashboard/headers.ts).
 */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { DashboardSession } from '../domain/ports';
import { STYLE } from './style';

const COPY = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.addEventListener('click', function () {
    var t = document.getElementById(b.getAttribute('data-copy')).textContent;
    navigator.clipboard.writeText(t).then(function () { b.textContent = 'Copied'; });
  });
});`;

/** The pages of the org, then its settings; each link's name is its page's title. */
const NAV = [
  ['/dashboard', 'Orgs'],
  ['/dashboard/memory', 'Memory'],
  ['/dashboard/artifacts', 'Artifacts'],
  ['/dashboard/ledger', 'Ledger'],
  ['/dashboard/usage', 'Usage'],
] as const;
const SETTINGS = [
  ['/dashboard/settings/keys', 'API keys'],
  ['/dashboard/settings/members', 'Members'],
  ['/dashboard/settings/apps', 'Connected apps'],
] as const;

/** A section of the dashboard, marked in the navigation as where the page is. */
export type Section = (typeof NAV)[number][0] | (typeof SETTINGS)[number][0];

export interface PageProps {
  title: string;
  nonce: string;
  session?: DashboardSession | null | undefined;
  /** The navigation's entry this page belongs to (aria-current). */
  section?: Section | undefined;
  children?: Child;
}

/** Cairn's mark: three stones, one on another. */
const Mark = () => (
  <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
    <ellipse cx="12" cy="19.5" rx="9" ry="3.5" />
    <ellipse cx="12" cy="12.5" rx="6.5" ry="3" />
    <ellipse cx="12" cy="6.5" rx="4" ry="2.5" />
  </svg>
);

/** A whole page: the header (with the navigation once signed in), the title, and its content. */
export function Page({ title, nonce, session, section, children }: PageProps) {
  const org = session?.orgs.find((o) => o.id === session.org_id);
  const link = ([href, label]: readonly [Section, string], prefix = '') => (
    <li>
      <a href={href} aria-current={href === section ? 'page' : undefined}>
        {prefix ? <span class="visually-hidden">{prefix}</span> : null}
        {label}
      </a>
    </li>
  );
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content="light dark" />
        <title>{`${title} · Cairn`}</title>
        <style nonce={nonce}>{raw(STYLE)}</style>
      </head>
      <body>
        <a class="skip" href="#main">
          Skip to content
        </a>
        <header class="top">
          <div class="bar">
            <a class="brand" href={session ? '/dashboard' : '/dashboard/signin'}>
              <Mark />
              Cairn
            </a>
            {org ? <span class="org-name">{org.name}</span> : null}
            {session ? (
              <form class="account" method="post" action="/dashboard/signout">
                <input type="hidden" name="_csrf" value={session.csrf} />
                <span class="who">{session.email}</span>
                <button type="submit" class="secondary small">
                  Sign out
                </button>
              </form>
            ) : null}
          </div>
          {session ? (
            <nav class="site" aria-label="Dashboard">
              <ul>{NAV.map((item) => link(item))}</ul>
              <ul aria-label="Settings">
                <li class="group" aria-hidden="true">
                  Settings
                </li>
                {SETTINGS.map((item) => link(item, 'Settings, '))}
              </ul>
            </nav>
          ) : null}
        </header>
        <main id="main">
          <h1>{title}</h1>
          {children}
        </main>
        <script nonce={nonce}>{raw(COPY)}</script>
      </body>
    </html>
  );
}
