/** @jsxImportSource hono/jsx */
/**
 * Memory (/dashboard/memory): the org's memory searched with recall's own ranking, as a reader
 * who is no agent (so no agent's private entries), with recall's filters.
 */
import { Hono } from 'hono';
import { recallInput } from '../../domain/operations';
import type { DashboardSession } from '../../domain/ports';
import { resolveProject } from '../../domain/projects';
import { rankedQuery } from '../../domain/query';
import { type Entry, KINDS } from '../../domain/schemas';
import { openSteps, summarise } from '../../domain/summary';
import { AgentName } from '../agent-name';
import { AnchorsLine, StaleMark } from '../anchors';
import { Empty, ErrorLine, Notice, when } from '../components';
import type { DashboardDeps, DashboardEnv } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
const AS_OF_RE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/;

/** The memory page's route. */
export function memoryPage({ store }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();

  app.get('/memory', signedIn(), async (c) => {
    const q = (name: keyof MemoryFilter) => (c.req.query(name) ?? '').trim();
    const filter: MemoryFilter = {
      q: q('q'),
      project: q('project'),
      agent: q('agent').normalize('NFC'), // as names are stored
      path: q('path'),
      kind: q('kind'),
      scope: q('scope'),
      since: q('since'),
      until: q('until'),
      as_of: q('as_of'),
    };
    const notice = c.req.query('forgotten') === '1' ? 'The entry is forgotten; the ledger keeps why.' : undefined;
    const page = (hits: Hit[] | null, error?: string, status: 200 | 422 = 200) =>
      c.html(
        <Memory
          nonce={c.get('nonce')}
          session={c.get('session')}
          filter={filter}
          hits={hits}
          error={error}
          notice={notice}
        />,
        status,
      );
    if (filter.kind && !(KINDS as readonly string[]).includes(filter.kind))
      return page(null, 'Pick a kind from the list.', 422);
    if (filter.scope && filter.scope !== 'org') return page(null, 'Pick a scope from the list.', 422);
    if ((filter.since && !DATE_RE.test(filter.since)) || (filter.until && !DATE_RE.test(filter.until))) {
      return page(null, 'Give dates as YYYY-MM-DD.', 422);
    }
    // as of a moment (UTC): recall's as_of, the memory as it stood then
    const asOf = filter.as_of && AS_OF_RE.test(filter.as_of) ? new Date(`${filter.as_of}Z`) : undefined;
    if (filter.as_of && (!asOf || Number.isNaN(asOf.getTime()))) {
      return page(null, 'Give “as of” as a date and time (YYYY-MM-DDTHH:MM, UTC).', 422);
    }
    if (filter.q.length > 4096) return page(null, 'Search with at most 4,096 characters.', 422);
    const project = resolveProject(filter.project || undefined);
    if (project.given && !project.recognised) {
      return page(null, 'A project is a git remote URL or an absolute path.', 422);
    }
    const paths = pathsOf(filter.path);
    if (typeof paths === 'string') return page(null, paths, 422);
    const hits = await store.dashboard.recall(c.get('tokenHash'), project.canonical, {
      ...rankedQuery(filter.q),
      limit: 50,
      ...(filter.agent ? { agent: filter.agent } : {}),
      ...(paths.length ? { paths } : {}),
      ...(filter.kind ? { kinds: [filter.kind] } : {}),
      ...(filter.scope ? { scope: filter.scope } : {}),
      ...(filter.since ? { since: `${filter.since}T00:00:00Z` } : {}),
      ...(filter.until ? { until: `${filter.until}T00:00:00Z` } : {}),
      ...(asOf ? { as_of: asOf.toISOString() } : {}),
    });
    return page(hits);
  });
  return app;
}

type Hit = Entry & { score: number };

/**
 * The Path filter's paths (one, or several separated by commas or spaces), made plain and checked
 * by recall's own rule for `paths` (domain/schemas.ts `anchorPath`); or why they are refused.
 */
function pathsOf(given: string): string[] | string {
  const parts = given.split(/[\s,]+/).filter(Boolean);
  if (!parts.length) return [];
  const parsed = recallInput.shape.paths.safeParse(parts);
  if (parsed.success) return parsed.data ?? [];
  const issue = parsed.error.issues[0];
  if (issue?.code === 'too_big') return `Give at most ${issue.maximum} paths (there are ${parts.length}).`;
  return `The path “${parts[Number(issue?.path[0])]}” ${issue?.message}: give files or folders relative to the repository's root, separated by commas or spaces.`;
}

interface MemoryFilter {
  q: string;
  project: string;
  agent: string;
  path: string;
  kind: string;
  scope: string;
  since: string;
  until: string;
  as_of: string;
}

function Field(p: { id: keyof MemoryFilter; label: string; value: string; type?: string }) {
  return (
    <p>
      <label for={p.id}>{p.label}</label>
      <input id={p.id} name={p.id} type={p.type ?? 'text'} value={p.value} />
    </p>
  );
}

function Memory(p: {
  nonce: string;
  session: DashboardSession;
  filter: MemoryFilter;
  hits: (Entry & { score: number })[] | null;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const f = p.filter;
  const filtered = Boolean(f.project || f.path || f.agent || f.kind || f.scope || f.since || f.until || f.as_of);
  return (
    <Page title="Memory" nonce={p.nonce} session={p.session} section="/dashboard/memory">
      <search>
        <form class="card" method="get" action="/dashboard/memory">
          <Field
            id="q"
            label="Search (the same ranking as recall; empty for the most recent)"
            value={f.q}
            type="search"
          />
          <details open={filtered}>
            <summary>Filters</summary>
            <Field id="project" label="Project (git remote URL or absolute path)" value={f.project} />
            <Field
              id="path"
              label="Path (a file or folder relative to the repository's root; several separated by commas or spaces)"
              value={f.path}
            />
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
            <Field
              id="as_of"
              label="As of (UTC): the memory as it stood then — later replacements and plan versions not yet made"
              value={f.as_of}
              type="datetime-local"
            />
          </details>
          <p class="actions">
            <button type="submit">Search</button>
            {f.q || filtered ? (
              <a class="button secondary" href="/dashboard/memory">
                Clear
              </a>
            ) : null}
          </p>
        </form>
      </search>
      <Notice text={p.notice} />
      {f.as_of && p.hits ? <p class="muted">As of {f.as_of.replace('T', ' ')} UTC.</p> : null}
      <ErrorLine error={p.error} />
      {p.hits === null ? null : p.hits.length === 0 ? (
        f.q || filtered ? (
          <Empty title="Nothing found.">
            <p>No shared entry matches. Try other words, or fewer filters.</p>
          </Empty>
        ) : (
          <Empty title="No memory yet.">
            <p>
              Agents write here with the <code>remember</code>, <code>decide</code> and <code>plan</code> tools. Give
              one an <a href="/dashboard/settings/keys">API key</a> to start.
            </p>
          </Empty>
        )
      ) : (
        <ol class="hits plain">
          {p.hits.map((h) => (
            <HitItem hit={h} scored={Boolean(p.filter.q)} />
          ))}
        </ol>
      )}
    </Page>
  );
}

/** One hit with the fields the recall tool's text carries (domain/summary.ts). */
function HitItem({ hit: h, scored }: { hit: Hit; scored: boolean }) {
  const s = summarise(h);
  return (
    <li>
      <p>
        <span class="badge accent">{h.kind}</span> <a href={`/dashboard/memory/${h.id}`}>{s.says}</a>
        {s.plan ? ` [${s.plan.status}, ${s.plan.done}/${s.plan.total} steps done]` : ''}
      </p>
      {s.plan?.open.length ? <p>Next: {openSteps(s.plan)}</p> : null}
      {s.why ? <p>Why: {s.why}</p> : null}
      {s.source ? <p>Source: {s.source}</p> : null}
      <StaleMark entry={h} />
      <AnchorsLine entry={h} />
      <p>
        <small>
          by <AgentName name={h.agent} />, {when(h.version > 1 ? h.updated_at : h.created_at)},{' '}
          {h.project ? `project ${h.project}` : 'org-wide'}
          {h.superseded_by ? (
            <>
              , superseded by <a href={`/dashboard/memory/${h.superseded_by}`}>a newer entry</a>
            </>
          ) : (
            ''
          )}
          {scored ? `, score ${h.score}` : ''}
        </small>
      </p>
    </li>
  );
}
