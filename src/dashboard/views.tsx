/** @jsxImportSource hono/jsx */
/**
 * The dashboard's pages: plain server-rendered HTML (Hono JSX), semantic and keyboard-usable, one
 * small inline style sheet, and one tiny script (the copy button) allowed by a per-response nonce.
 */
import { raw } from 'hono/html';
import type { Child } from 'hono/jsx';
import type { Usage as UsageData } from '../domain/limits';
import type { DashboardSession, EntryPage as EntryData, Grant, Member } from '../domain/ports';
import { type ApiKeyInfo, type Artifact, type Entry, KINDS, type LedgerEvent } from '../domain/types';

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

/** What an action did, said where a screen reader announces it. */
export function Notice({ text }: { text?: string | undefined }) {
  return text ? (
    <p class="notice" role="status">
      {text}
    </p>
  ) : null;
}

export function ErrorLine({ error }: { error?: string | undefined }) {
  return error ? (
    <p class="error" role="alert">
      {error}
    </p>
  ) : null;
}

/** The sign-up and sign-in pages: one form of email and password, with their own extras. */
function AccountPage(p: {
  nonce: string;
  csrf: string;
  error?: string | undefined;
  email?: string | undefined;
  title: string;
  action: string;
  password: { label: string; autocomplete: string; minlength?: number };
  extra?: Child;
  submit: string;
  footer: Child;
  /** Where to go once signed in (an authorization request waiting for consent). */
  next?: string | undefined;
}) {
  return (
    <Page title={p.title} nonce={p.nonce}>
      <ErrorLine error={p.error} />
      {p.next ? <p>Sign in to let an application use your org’s memory.</p> : null}
      <form method="post" action={p.action}>
        <input type="hidden" name="_csrf" value={p.csrf} />
        {p.next ? <input type="hidden" name="next" value={p.next} /> : null}
        <label for="email">Email</label>
        <input id="email" name="email" type="email" autocomplete="email" required value={p.email ?? ''} />
        <label for="password">{p.password.label}</label>
        <input
          id="password"
          name="password"
          type="password"
          autocomplete={p.password.autocomplete}
          minlength={p.password.minlength}
          required
        />
        {p.extra}
        <p>
          <button type="submit">{p.submit}</button>
        </p>
      </form>
      <p>{p.footer}</p>
    </Page>
  );
}

/** `?next=…` carried from one account page to the other. */
const withNext = (path: string, next: string | undefined) => (next ? `${path}?${new URLSearchParams({ next })}` : path);

export function SignUp(p: {
  nonce: string;
  csrf: string;
  error?: string;
  email?: string;
  org?: string;
  next?: string | undefined;
}) {
  return (
    <AccountPage
      {...p}
      title="Create your account"
      action="/dashboard/signup"
      password={{ label: 'Password (at least 12 characters)', autocomplete: 'new-password', minlength: 12 }}
      extra={
        <>
          <label for="org">Organisation name</label>
          <input id="org" name="org" type="text" required maxlength={100} value={p.org ?? ''} />
        </>
      }
      submit="Create account"
      footer={
        <>
          Have an account? <a href={withNext('/dashboard/signin', p.next)}>Sign in</a>
        </>
      }
    />
  );
}

export function SignIn(p: {
  nonce: string;
  csrf: string;
  error?: string;
  email?: string;
  signupOpen: boolean;
  next?: string | undefined;
}) {
  return (
    <AccountPage
      {...p}
      title="Sign in"
      action="/dashboard/signin"
      password={{ label: 'Password', autocomplete: 'current-password' }}
      submit="Sign in"
      footer={
        p.signupOpen ? (
          <>
            New here? <a href={withNext('/dashboard/signup', p.next)}>Create an account</a>
          </>
        ) : (
          'Accounts on this server are made by its operator.'
        )
      }
    />
  );
}

export function SignupClosed(p: { nonce: string }) {
  return (
    <Page title="Sign-up is closed" nonce={p.nonce}>
      <p>
        Accounts on this server are made by its operator, with{' '}
        <code>npx cairn user create --org ORG_ID --email you@example.com</code>.
      </p>
      <p>
        <a href="/dashboard/signin">Sign in</a>
      </p>
    </Page>
  );
}

export function Orgs(p: { nonce: string; session: DashboardSession; error?: string }) {
  const { session } = p;
  return (
    <Page title="Your orgs" nonce={p.nonce} session={session}>
      <ErrorLine error={p.error} />
      <ul>
        {session.orgs.map((o) => (
          <li>
            {o.id === session.org_id ? (
              <strong>
                {o.name} (shown, {o.role})
              </strong>
            ) : (
              <form class="inline" method="post" action="/dashboard/orgs/switch">
                <input type="hidden" name="_csrf" value={session.csrf} />
                <input type="hidden" name="org_id" value={o.id} />
                {o.name} ({o.role}) <button type="submit">Show this org</button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <h2>New org</h2>
      <form method="post" action="/dashboard/orgs">
        <input type="hidden" name="_csrf" value={session.csrf} />
        <label for="name">Name</label>
        <input id="name" name="name" type="text" required maxlength={100} />
        <p>
          <button type="submit">Create org</button>
        </p>
      </form>
    </Page>
  );
}

function when(iso: string | null | undefined): string {
  return iso ? iso.replace('T', ' ').slice(0, 16) : 'never';
}

/** A table whose cells carry their column's name, so that on a phone each row reads as labelled lines. */
function DataTable<T>(p: { caption: string; rows: T[]; columns: { label: string; cell: (row: T) => Child }[] }) {
  return (
    <table>
      <caption>{p.caption}</caption>
      <thead>
        <tr>
          {p.columns.map((c) => (
            <th scope="col">{c.label}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {p.rows.map((row) => (
          <tr>
            {p.columns.map((c) => (
              <td data-label={c.label}>{c.cell(row)}</td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function Keys(p: {
  nonce: string;
  session: DashboardSession;
  keys: ApiKeyInfo[];
  notice?: string;
  error?: string;
}) {
  return (
    <Page title="Settings, API keys" nonce={p.nonce} session={p.session}>
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      <p>An API key lets agents of this org call Cairn over MCP. Keys are org-wide; a revoked key is refused.</p>
      <form method="post" action="/dashboard/settings/keys">
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <label for="name">Name of a new key</label>
        <input id="name" name="name" type="text" required maxlength={100} placeholder="e.g. build agents" />
        <p>
          <button type="submit">Create key</button>
        </p>
      </form>
      <DataTable
        caption="Keys of this org"
        rows={p.keys}
        columns={[
          { label: 'Name', cell: (k) => k.name },
          { label: 'Prefix', cell: (k) => <code>{k.prefix}…</code> },
          { label: 'Created by', cell: (k) => k.created_by },
          { label: 'Created', cell: (k) => when(k.created_at) },
          { label: 'Last used', cell: (k) => when(k.last_used_at) },
          { label: 'Status', cell: (k) => (k.revoked_at ? `revoked ${when(k.revoked_at)}` : 'active') },
          {
            label: 'Actions',
            cell: (k) =>
              k.revoked_at ? null : (
                <a href={`/dashboard/settings/keys/${k.id}/revoke`} aria-label={`Revoke ${k.name}`}>
                  Revoke…
                </a>
              ),
          },
        ]}
      />
    </Page>
  );
}

export function KeyCreated(p: {
  nonce: string;
  session: DashboardSession;
  apiKey: ApiKeyInfo;
  secret: string;
  mcpUrl: string;
}) {
  const config = JSON.stringify(
    {
      mcpServers: {
        cairn: { type: 'http', url: p.mcpUrl, headers: { 'X-Svc-Key': p.secret, 'X-Svc-Agent': 'my-agent' } },
      },
    },
    null,
    2,
  );
  return (
    <Page title={`Key “${p.apiKey.name}” created`} nonce={p.nonce} session={p.session}>
      <p class="notice" role="status">
        Copy the key now: it is shown once and cannot be shown again.
      </p>
      <p>
        <code id="secret">{p.secret}</code>{' '}
        <button type="button" data-copy="secret">
          Copy key
        </button>
      </p>
      <h2>Client configuration</h2>
      <p>
        Give each agent its own name in <code>X-Svc-Agent</code>; add <code>X-Svc-Project</code> with a git remote URL
        or an absolute path to scope its memory to a project.
      </p>
      <pre id="config">{config}</pre>
      <p>
        <button type="button" data-copy="config">
          Copy configuration
        </button>
      </p>
      <p>
        <a href="/dashboard/settings/keys">Back to API keys</a>
      </p>
    </Page>
  );
}

export function RevokeKey(p: { nonce: string; session: DashboardSession; apiKey: ApiKeyInfo }) {
  return (
    <Page title={`Revoke key “${p.apiKey.name}”?`} nonce={p.nonce} session={p.session}>
      <p>
        Agents using the key starting <code>{p.apiKey.prefix}</code> are refused from their next request. This cannot be
        undone.
      </p>
      <form method="post" action={`/dashboard/settings/keys/${p.apiKey.id}/revoke`}>
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <button type="submit">Revoke key</button> <a href="/dashboard/settings/keys">Cancel</a>
      </form>
    </Page>
  );
}

export interface MemoryFilter {
  q: string;
  project: string;
  agent: string;
  kind: string;
  scope: string;
  since: string;
  until: string;
}

function Field(p: { id: keyof MemoryFilter; label: string; value: string; type?: string }) {
  return (
    <p>
      <label for={p.id}>{p.label}</label>
      <input id={p.id} name={p.id} type={p.type ?? 'text'} value={p.value} />
    </p>
  );
}

export function Memory(p: {
  nonce: string;
  session: DashboardSession;
  filter: MemoryFilter;
  hits: (Entry & { score: number })[] | null;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const f = p.filter;
  return (
    <Page title="Memory" nonce={p.nonce} session={p.session}>
      <search>
        <form method="get" action="/dashboard/memory">
          <Field
            id="q"
            label="Search (the same ranking as recall; empty for the most recent)"
            value={f.q}
            type="search"
          />
          <details open={Boolean(f.project || f.agent || f.kind || f.scope || f.since || f.until)}>
            <summary>Filters</summary>
            <Field id="project" label="Project (git remote URL or absolute path)" value={f.project} />
            <Field id="agent" label="Written by agent" value={f.agent} />
            <p>
              <label for="kind">Kind</label>
              <select id="kind" name="kind">
                <option value="">any</option>
                {KINDS.filter((k) => k !== 'note').map((k) => (
                  <option value={k} selected={f.kind === k}>
                    {k}
                  </option>
                ))}
              </select>
            </p>
            <p>
              <label for="scope">Scope</label>
              <select id="scope" name="scope">
                <option value="">the project and org-wide entries (or all, without a project)</option>
                <option value="org" selected={f.scope === 'org'}>
                  every shared entry
                </option>
              </select>
            </p>
            <Field id="since" label="Written on or after" value={f.since} type="date" />
            <Field id="until" label="Written before" value={f.until} type="date" />
          </details>
          <p>
            <button type="submit">Search</button>
          </p>
        </form>
      </search>
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      {p.hits === null ? null : p.hits.length === 0 ? (
        <p role="status">Nothing found.</p>
      ) : (
        <ol>
          {p.hits.map((h) => (
            <li>
              <p>
                <strong>[{h.kind}]</strong>{' '}
                <a href={`/dashboard/memory/${h.id}`}>{h.kind === 'plan' ? `${h.title} (${h.status})` : h.content}</a>
              </p>
              <p>
                <small>
                  by {h.agent}, {when(h.created_at)}, {h.project ? `project ${h.project}` : 'org-wide'}
                  {h.superseded_by ? ', superseded' : ''}
                  {p.filter.q ? `, score ${h.score}` : ''}
                </small>
              </p>
            </li>
          ))}
        </ol>
      )}
    </Page>
  );
}

export function Ledger(p: {
  nonce: string;
  session: DashboardSession;
  events: LedgerEvent[];
  filter: { agent: string; op: string };
  verified: { ok: boolean; events: number; broken_at: number | null };
  more: number | null;
}) {
  return (
    <Page title="Ledger" nonce={p.nonce} session={p.session}>
      <p class="notice" role="status">
        {p.verified.ok
          ? `Chain verified: all ${p.verified.events} events are intact.`
          : `Chain BROKEN at event ${p.verified.broken_at}: an event was altered or removed.`}
      </p>
      <form method="get" action="/dashboard/ledger">
        <label for="agent">Agent</label>
        <input id="agent" name="agent" type="text" value={p.filter.agent} />
        <label for="op">Operation</label>
        <input id="op" name="op" type="text" value={p.filter.op} placeholder="e.g. remember, forget, key.revoke" />
        <p>
          <button type="submit">Filter</button>
        </p>
      </form>
      <EventsTable events={p.events} caption="Events, newest first" />
      {p.more === null ? null : (
        <p>
          <a href={`/dashboard/ledger?${new URLSearchParams({ ...p.filter, before: String(p.more) }).toString()}`}>
            Older events
          </a>
        </p>
      )}
    </Page>
  );
}

function EventsTable(p: { events: LedgerEvent[]; caption: string }) {
  return (
    <DataTable
      caption={p.caption}
      rows={p.events}
      columns={[
        { label: '#', cell: (e) => e.seq },
        { label: 'When', cell: (e) => when(e.at) },
        { label: 'Agent', cell: (e) => e.agent },
        { label: 'Operation', cell: (e) => e.op },
        { label: 'Entry', cell: (e) => <code>{e.entry_id ?? ''}</code> },
        { label: 'Reason', cell: (e) => e.reason ?? '' },
      ]}
    />
  );
}

export function EntryView(p: {
  nonce: string;
  session: DashboardSession;
  data: EntryData;
  error?: string | undefined;
}) {
  const e = p.data.entry;
  return (
    <Page
      title={`${e.kind[0]?.toUpperCase()}${e.kind.slice(1)} ${e.id.slice(0, 8)}…`}
      nonce={p.nonce}
      session={p.session}
    >
      <ErrorLine error={p.error} />
      {e.kind === 'plan' ? (
        <>
          <h2>{e.title}</h2>
          <p>Status: {e.status}</p>
          <ol>
            {(e.steps ?? []).map((s) => (
              <li>
                [{s.status}] {s.text}
              </li>
            ))}
          </ol>
        </>
      ) : (
        <blockquote>
          <p>{e.content}</p>
          {e.rationale ? <p>Rationale: {e.rationale}</p> : null}
        </blockquote>
      )}
      <dl>
        <dt>Written by</dt>
        <dd>{e.agent}</dd>
        <dt>When</dt>
        <dd>{when(e.created_at)}</dd>
        <dt>Where</dt>
        <dd>{e.project ? `project ${e.project}` : 'org-wide'}</dd>
        <dt>Scope</dt>
        <dd>{e.scope}</dd>
        {e.tags.length ? (
          <>
            <dt>Tags</dt>
            <dd>{e.tags.join(', ')}</dd>
          </>
        ) : null}
      </dl>
      <h2>Versions</h2>
      <ol>
        {p.data.versions.map((v) =>
          v.current ? (
            <li>
              <strong>
                version {v.version} (this one), {when(v.created_at)} by {v.agent}
              </strong>
            </li>
          ) : (
            <li>
              <a href={`/dashboard/memory/${v.id}`}>version {v.version}</a>, {when(v.created_at)} by {v.agent}
            </li>
          ),
        )}
      </ol>
      <EventsTable events={p.data.events} caption="Ledger events of this entry" />
      <h2>Forget</h2>
      <form method="post" action={`/dashboard/memory/${e.id}/forget`}>
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <label for="reason">Why it must go (kept in the ledger)</label>
        <input id="reason" name="reason" type="text" required maxlength={500} />
        <p>
          <button type="submit">Forget this entry</button>
        </p>
      </form>
    </Page>
  );
}

export function Artifacts(p: { nonce: string; session: DashboardSession; artifacts: Artifact[] }) {
  return (
    <Page title="Artifacts" nonce={p.nonce} session={p.session}>
      {p.artifacts.length === 0 ? (
        <p role="status">No shared artifacts yet: agents store them with artifact_put.</p>
      ) : (
        <DataTable
          caption="Shared artifacts, newest first"
          rows={p.artifacts}
          columns={[
            {
              label: 'Name',
              cell: (a) => (
                <a href={`/dashboard/artifacts/${a.id}`} download={a.name}>
                  {a.name}
                </a>
              ),
            },
            { label: 'Version', cell: (a) => a.version },
            { label: 'Type', cell: (a) => a.content_type },
            { label: 'Size', cell: (a) => `${a.size.toLocaleString('en')} bytes` },
            { label: 'By', cell: (a) => a.agent },
            { label: 'When', cell: (a) => when(a.created_at) },
          ]}
        />
      )}
    </Page>
  );
}

const number = new Intl.NumberFormat('en');

function bytes(n: number): string {
  const units = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return u === 0 ? `${number.format(n)} bytes` : `${v.toFixed(1)} ${units[u]}`;
}

/** "used of limit (n %)" with a meter, or just "used" when nothing limits it. */
function Against(p: { used: number; limit: number | null; label: string; format: (n: number) => string }) {
  if (p.limit === null) return <>{p.format(p.used)} (no limit)</>;
  const share = p.limit === 0 ? 100 : Math.round((100 * p.used) / p.limit);
  return (
    <>
      {p.format(p.used)} of {p.format(p.limit)} ({share} %){' '}
      <meter aria-label={p.label} min={0} max={p.limit} value={Math.min(p.used, p.limit)} high={p.limit * 0.8}>
        {share} %
      </meter>
    </>
  );
}

/** The org's plan, its use this month against the quotas, and its use per day. */
export function Usage(p: { nonce: string; session: DashboardSession; usage: UsageData; days: number }) {
  const u = p.usage;
  const limitOr = (n: number | null, f: (n: number) => string) => (n === null ? 'no limit' : f(n));
  // calls of the month so far at the end of each day, for the quota column
  const rows = [...(u.days ?? [])].reverse();
  let month = '';
  let sum = 0;
  const withTotals = rows
    .map((d) => {
      if (d.day.slice(0, 7) !== month) {
        month = d.day.slice(0, 7);
        sum = 0;
      }
      sum += d.calls;
      return { ...d, monthToDate: sum };
    })
    .reverse();
  return (
    <Page title="Usage" nonce={p.nonce} session={p.session}>
      <p>
        {u.plan === null
          ? 'This org has no plan: nothing is limited beyond the installation’s own payload limits.'
          : `Plan: ${u.plan}.`}
      </p>
      <dl>
        <dt>Tool calls this month</dt>
        <dd>
          <Against
            used={u.tool_calls_this_month}
            limit={u.tool_calls_per_month}
            label="Tool calls this month against the quota"
            format={(n) => number.format(n)}
          />
          ; the count starts again at {when(u.resets_at)} UTC.
        </dd>
        <dt>Stored (entry content and artifacts)</dt>
        <dd>
          <Against
            used={u.stored_bytes}
            limit={u.stored_bytes_limit}
            label="Stored bytes against the quota"
            format={bytes}
          />
        </dd>
        <dt>Requests per minute, per API key</dt>
        <dd>{limitOr(u.requests_per_minute, (n) => number.format(n))}</dd>
        <dt>Largest artifact</dt>
        <dd>{limitOr(u.artifact_bytes, bytes)}</dd>
        <dt>Longest entry</dt>
        <dd>{limitOr(u.entry_chars, (n) => `${number.format(n)} characters`)}</dd>
      </dl>
      <DataTable
        caption={`Per day (UTC), the last ${p.days} days with tool calls, newest first`}
        rows={withTotals}
        columns={[
          { label: 'Day', cell: (d) => d.day },
          { label: 'Tool calls', cell: (d) => number.format(d.calls) },
          {
            label: 'Month to date',
            cell: (d) =>
              u.tool_calls_per_month === null
                ? number.format(d.monthToDate)
                : `${number.format(d.monthToDate)} of ${number.format(u.tool_calls_per_month)}`,
          },
          {
            label: 'Stored at the day’s last call',
            cell: (d) =>
              u.stored_bytes_limit === null
                ? bytes(d.stored_bytes)
                : `${bytes(d.stored_bytes)} of ${bytes(u.stored_bytes_limit)}`,
          },
        ]}
      />
      {withTotals.length === 0 ? <p>No tool calls in these days.</p> : null}
    </Page>
  );
}

/** Settings, members: everyone sees who belongs; owners add existing accounts and remove members. */
export function Members(p: {
  nonce: string;
  session: DashboardSession;
  members: Member[];
  notice?: string;
  error?: string;
}) {
  const owner = p.session.orgs.find((o) => o.id === p.session.org_id)?.role === 'owner';
  return (
    <Page title="Settings, members" nonce={p.nonce} session={p.session}>
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      <p>
        Members see this org’s memory, artifacts, ledger and usage, and manage its API keys. Owners also add and remove
        members.
      </p>
      {owner ? (
        <form method="post" action="/dashboard/settings/members">
          <input type="hidden" name="_csrf" value={p.session.csrf} />
          <label for="email">Email of an account to add</label>
          <input id="email" name="email" type="email" required autocomplete="off" />
          <p>
            <button type="submit">Add member</button> They need an account first: they create one at sign-up.
          </p>
        </form>
      ) : null}
      <DataTable
        caption="Members of this org"
        rows={p.members}
        columns={[
          { label: 'Email', cell: (m) => m.email },
          { label: 'Role', cell: (m) => m.role },
          { label: 'Joined', cell: (m) => when(m.joined_at) },
          {
            label: 'Actions',
            cell: (m) =>
              owner ? (
                <form class="inline" method="post" action={`/dashboard/settings/members/${m.user_id}/remove`}>
                  <input type="hidden" name="_csrf" value={p.session.csrf} />
                  <button type="submit" aria-label={`Remove ${m.email}`}>
                    {m.user_id === p.session.user_id ? 'Leave' : 'Remove'}
                  </button>
                </form>
              ) : null,
          },
        ]}
      />
    </Page>
  );
}

/** The authorization request a consent form carries back, field by field. */
export type AuthorizeFields = Record<string, string>;

/** OAuth consent: which app, where it will be sent, which org it may use. */
export function Consent(p: {
  nonce: string;
  session: DashboardSession;
  clientName: string;
  clientId: string;
  redirectHost: string;
  fields: AuthorizeFields;
}) {
  return (
    <Page title={`Allow ${p.clientName}?`} nonce={p.nonce} session={p.session}>
      <p>
        <strong>{p.clientName}</strong> (<code>{p.clientId}</code>) asks to read and write an org’s shared memory over
        MCP. Its writes are attributed to the agent <code>{p.clientId}</code> unless it names another.
      </p>
      <p>
        Once you answer, you are sent back to <strong>{p.redirectHost}</strong>. You can revoke its access at any time
        under Settings, connected apps.
      </p>
      <form method="post" action="/dashboard/authorize">
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        {Object.entries(p.fields).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <label for="org_id">Org it may use</label>
        <select id="org_id" name="org_id">
          {p.session.orgs.map((o) => (
            <option value={o.id} selected={o.id === p.session.org_id}>
              {o.name}
            </option>
          ))}
        </select>
        <p>
          <button type="submit" name="decision" value="allow">
            Allow
          </button>{' '}
          <button type="submit" name="decision" value="deny">
            Deny
          </button>
        </p>
      </form>
    </Page>
  );
}

/** An authorization request that cannot be sent back to its client: said here instead. */
export function AuthorizeError(p: { nonce: string; message: string }) {
  return (
    <Page title="This sign-in link cannot be used" nonce={p.nonce}>
      <p class="error" role="alert">
        {p.message}
      </p>
      <p>Start again from the application that sent you here.</p>
    </Page>
  );
}

/** Settings, connected apps: the org's OAuth grants; revoking one stops its tokens at once. */
export function Apps(p: {
  nonce: string;
  session: DashboardSession;
  grants: Grant[];
  notice?: string | undefined;
  error?: string | undefined;
}) {
  return (
    <Page title="Settings, connected apps" nonce={p.nonce} session={p.session}>
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      <p>Applications that members let use this org’s memory through OAuth.</p>
      <DataTable
        caption="Connected apps"
        rows={p.grants}
        columns={[
          { label: 'App', cell: (g) => g.client_name },
          { label: 'Client id', cell: (g) => <code>{g.client_id}</code> },
          { label: 'Allowed by', cell: (g) => g.user },
          { label: 'Allowed', cell: (g) => when(g.created_at) },
          { label: 'Last used', cell: (g) => when(g.last_used_at) },
          { label: 'Status', cell: (g) => (g.revoked_at ? `revoked ${when(g.revoked_at)}` : 'active') },
          {
            label: 'Actions',
            cell: (g) =>
              g.revoked_at ? null : (
                <form class="inline" method="post" action={`/dashboard/settings/apps/${g.id}/revoke`}>
                  <input type="hidden" name="_csrf" value={p.session.csrf} />
                  <button type="submit" aria-label={`Revoke ${g.client_name}`}>
                    Revoke
                  </button>
                </form>
              ),
          },
        ]}
      />
      {p.grants.length === 0 ? <p>No app has been connected yet.</p> : null}
    </Page>
  );
}
