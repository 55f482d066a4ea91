/** @jsxImportSource hono/jsx */
/**
 * An entry's page (/dashboard/memory/:id): the entry (a plan as a board of its steps and claims),
 * its versions both ways along supersession with what changed between them, its ledger events,
 * and forgetting it with a reason the ledger keeps.
 */
import { type Context, Hono } from 'hono';
import { NotFound } from '../../domain/errors';
import { UUID_RE } from '../../domain/ids';
import type { DashboardSession, EntryPage as EntryData } from '../../domain/ports';
import { AgentName } from '../agent-name';
import { PathLinks, StaleMark } from '../anchors';
import { Empty, ErrorLine, EventsTable, when } from '../components';
import { type DashboardDeps, type DashboardEnv, formOf, type SignedInEnv } from '../context';
import { Page } from '../layout';
import { PlanBoard } from '../plan-board';
import { signedIn } from '../session';
import { Versions } from '../versions';

/** The entry page's routes. */
export function entryPage({ store }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The entry the path names, as the session's org shows it; else 404. */
  const entryData = async (c: Context<SignedInEnv>) => {
    const id = c.req.param('id') ?? '';
    const data = UUID_RE.test(id) ? await store.dashboard.entry(c.get('tokenHash'), id) : null;
    if (!data) throw new NotFound('no such entry in this org');
    return data;
  };

  app.get('/memory/:id', signedIn(), async (c) =>
    c.html(<EntryView nonce={c.get('nonce')} session={c.get('session')} data={await entryData(c)} now={Date.now()} />),
  );

  app.post('/memory/:id/forget', signedIn(), async (c) => {
    const data = await entryData(c);
    const reason = (await formOf(c))('reason').trim();
    if (!reason || reason.length > 500) {
      return c.html(
        <EntryView
          nonce={c.get('nonce')}
          session={c.get('session')}
          data={data}
          now={Date.now()}
          error="Say why it must go (up to 500 characters)."
        />,
        422,
      );
    }
    await store.dashboard.forget(c.get('tokenHash'), data.entry.id, reason);
    return c.redirect('/dashboard/memory?forgotten=1', 303);
  });
  return app;
}

function EntryView(p: {
  nonce: string;
  session: DashboardSession;
  data: EntryData;
  now: number;
  error?: string | undefined;
}) {
  const e = p.data.entry;
  return (
    <Page
      title={`${e.kind[0]?.toUpperCase()}${e.kind.slice(1)} ${e.id.slice(0, 8)}…`}
      nonce={p.nonce}
      session={p.session}
      section="/dashboard/memory"
    >
      <ErrorLine error={p.error} />
      <StaleMark entry={e} boxed />
      {e.kind === 'plan' ? (
        <PlanBoard plan={e} updatedBy={p.data.updated_by} lastChange={p.data.last_change} now={p.now} />
      ) : (
        <blockquote>
          <p>{e.content}</p>
          {e.rationale ? <p>Rationale: {e.rationale}</p> : null}
        </blockquote>
      )}
      <dl class="facts">
        <dt>Written by</dt>
        <dd>
          <AgentName name={e.agent} />
        </dd>
        <dt>When</dt>
        <dd>{when(e.created_at)}</dd>
        <dt>Where</dt>
        <dd>{e.project ? `project ${e.project}` : 'org-wide'}</dd>
        <dt>Scope</dt>
        <dd>{e.scope}</dd>
        {e.paths?.length ? (
          <>
            <dt>{e.paths.length === 1 ? 'Path' : 'Paths'}</dt>
            <dd>
              <PathLinks paths={e.paths} />
            </dd>
          </>
        ) : null}
        {e.commit ? (
          <>
            <dt>Commit</dt>
            <dd>
              <code>{e.commit}</code>
            </dd>
          </>
        ) : null}
        {e.tags.length ? (
          <>
            <dt>Tags</dt>
            <dd>{e.tags.join(', ')}</dd>
          </>
        ) : null}
        {p.data.replaced_in.length ? (
          <>
            <dt>Replaced</dt>
            <dd>
              {p.data.replaced_in.map((r, i) => (
                <>
                  {i ? '; ' : ''}in project {r.project} by <a href={`/dashboard/memory/${r.id}`}>a project entry</a>
                </>
              ))}{' '}
              (current everywhere else)
            </dd>
          </>
        ) : null}
      </dl>
      <Versions versions={p.data.versions} />
      {p.data.events.length ? (
        <EventsTable events={p.data.events} caption="Ledger events of this entry" />
      ) : (
        <Empty title="No ledger events for this entry." />
      )}
      <h2>Forget</h2>
      <form class="card" method="post" action={`/dashboard/memory/${e.id}/forget`}>
        <p>A forgotten entry is gone for every agent; the ledger keeps who forgot it and why.</p>
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <label for="reason">Why it must go (kept in the ledger)</label>
        <input id="reason" name="reason" type="text" required maxlength={500} />
        <p class="actions">
          <button type="submit" class="danger">
            Forget this entry
          </button>
        </p>
      </form>
    </Page>
  );
}
