/** @jsxImportSource hono/jsx */
/**
 * The dashboard's layout: plain server-rendered HTML (Hono JSX), semantic and keyboard-usable, one
 * small inline style sheet, and one tiny script (the copy buttons), both allowed by the response's
 * nonce (src/dashboard/headers.ts).
 */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { DashboardSession } from '../domain/ports';

const STYLE = `
:root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.5; }
body { margin: 0 auto; max-width: 56rem; padding: 1rem; }
header { display: flex; flex-wrap: wrap; gap: 1rem; align-items: center; justify-content: space-between;
  border-bottom: 1px solid #8886; padding-bottom: .5rem; margin-bottom: 1rem; }
nav ul { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; list-style: none; margin: 0; padding: 0; }
form.inline { display: inline; }
label { display: block; margin: .75rem 0 .25rem; font-weight: 600; }
input, select, button { font: inherit; padding: .4rem .6rem; max-width: 100%; }
input[type=email], input[type=password], input[type=text], input[type=search] { width: 22rem; }
button { cursor: pointer; }
:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
table { border-collapse: collapse; width: 100%; }
th, td { text-align: left; padding: .4rem; border-bottom: 1px solid #8884; vertical-align: top; }
.error { color: #b00020; font-weight: 600; }
.notice { background: #8882; padding: .5rem .75rem; }
pre, code { font-family: ui-monospace, monospace; }
pre { background: #8882; padding: .75rem; overflow-x: auto; }
#secret { word-break: break-all; }
caption { text-align: left; font-weight: 600; padding: .5rem 0; }
dt { font-weight: 600; }
@media (max-width: 40rem) { table, caption, thead, tbody, tr, th, td { display: block; } thead { display: none; }
  td { border: 0; padding: .1rem 0; } tr { border-bottom: 1px solid #8884; padding: .5rem 0; }
  td[data-label]::before { content: attr(data-label) ": "; font-weight: 600; } }
`;

const COPY = `document.querySelectorAll('button[data-copy]').forEach(function (b) {
  b.addEventListener('click', function () {
    var t = document.getElementById(b.getAttribute('data-copy')).textContent;
    navigator.clipboard.writeText(t).then(function () { b.textContent = 'Copied'; });
  });
});`;

const NAV = [
  ['/dashboard', 'Orgs'],
  ['/dashboard/memory', 'Memory'],
  ['/dashboard/artifacts', 'Artifacts'],
  ['/dashboard/ledger', 'Ledger'],
  ['/dashboard/usage', 'Usage'],
  ['/dashboard/settings/keys', 'Settings, API keys'],
  ['/dashboard/settings/members', 'Settings, members'],
  ['/dashboard/settings/apps', 'Settings, connected apps'],
] as const;

export interface PageProps {
  title: string;
  nonce: string;
  session?: DashboardSession | null | undefined;
  children?: Child;
}

/** A whole page: the header (with the navigation once signed in), the title, and its content. */
export function Page({ title, nonce, session, children }: PageProps) {
  const org = session?.orgs.find((o) => o.id === session.org_id);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{`${title} · Cairn`}</title>
        <style nonce={nonce}>{raw(STYLE)}</style>
      </head>
      <body>
        <header>
          <strong>Cairn{org ? ` · ${org.name}` : ''}</strong>
          {session ? (
            <nav aria-label="Dashboard">
              <ul>
                {NAV.map(([href, label]) => (
                  <li>
                    <a href={href}>{label}</a>
                  </li>
                ))}
                <li>
                  <form class="inline" method="post" action="/dashboard/signout">
                    <input type="hidden" name="_csrf" value={session.csrf} />
                    <button type="submit">Sign out ({session.email})</button>
                  </form>
                </li>
              </ul>
            </nav>
          ) : null}
        </header>
        <main>
          <h1>{title}</h1>
          {children}
        </main>
        <script nonce={nonce}>{raw(COPY)}</script>
      </body>
    </html>
  );
}
