/** @jsxImportSource hono/jsx */
/** The user's orgs (/dashboard): the one shown, switching to another, and a new one. */
import { Hono } from 'hono';
import { uuidv7 } from '../../domain/ids';
import type { DashboardSession } from '../../domain/ports';
import { ErrorLine } from '../components';
import { type DashboardDeps, type DashboardEnv, formOf } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

/** The orgs page's routes. */
export function orgsPage({ store }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();

  app.get('/', signedIn(), (c) => c.html(<Orgs nonce={c.get('nonce')} session={c.get('session')} />));

  app.post('/orgs', signedIn(), async (c) => {
    const session = c.get('session');
    const name = (await formOf(c))('name').trim();
    if (!name || name.length > 100) {
      return c.html(
        <Orgs nonce={c.get('nonce')} session={session} error="Name the org (up to 100 characters)." />,
        422,
      );
    }
    const orgId = uuidv7();
    await store.dashboard.createOrg(session.user_id, orgId, name);
    await store.dashboard.switchOrg(c.get('tokenHash'), orgId);
    return c.redirect('/dashboard/settings/keys', 303);
  });

  app.post('/orgs/switch', signedIn(), async (c) => {
    await store.dashboard.switchOrg(c.get('tokenHash'), (await formOf(c))('org_id'));
    return c.redirect('/dashboard', 303);
  });
  return app;
}

function Orgs(p: { nonce: string; session: DashboardSession; error?: string }) {
  const { session } = p;
  return (
    <Page title="Your orgs" nonce={p.nonce} session={session} section="/dashboard">
      <ErrorLine error={p.error} />
      <p class="lead">The org shown is the one every page is about; switch to another at any time.</p>
      <ul class="orgs plain">
        {session.orgs.map((o) => (
          <li class={o.id === session.org_id ? 'current' : undefined}>
            {o.id === session.org_id ? (
              <>
                <strong>
                  {o.name} (shown, {o.role})
                </strong>{' '}
                <small>{orgDetail(o)}</small>
              </>
            ) : (
              <form class="inline" method="post" action="/dashboard/orgs/switch">
                <input type="hidden" name="_csrf" value={session.csrf} />
                <input type="hidden" name="org_id" value={o.id} />
                {o.name} ({o.role}) <small>{orgDetail(o)}</small>{' '}
                <button type="submit" class="secondary small">
                  Show this org
                </button>
              </form>
            )}
          </li>
        ))}
      </ul>
      <form class="card" method="post" action="/dashboard/orgs">
        <h2>New org</h2>
        <input type="hidden" name="_csrf" value={session.csrf} />
        <label for="name">Name</label>
        <input id="name" name="name" type="text" required maxlength={100} />
        <p class="actions">
          <button type="submit">Create org</button>
        </p>
      </form>
    </Page>
  );
}

/** What tells apart orgs of one name: the end of the id (its random part: a UUIDv7 begins with its time), and who owns it. */
export function orgDetail(o: { id: string; owner: string | null }): string {
  return `id …${o.id.slice(-8)}${o.owner ? `, owner ${o.owner}` : ''}`;
}
