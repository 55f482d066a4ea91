/** @jsxImportSource hono/jsx */
/** Settings, connected apps (/dashboard/settings/apps): the org's OAuth grants; revoking one stops its tokens at once. */
import { type Context, Hono } from 'hono';
import { NotFound } from '../../domain/errors';
import { UUID_RE } from '../../domain/ids';
import type { DashboardSession, Grant } from '../../domain/ports';
import { AgentName } from '../agent-name';
import { DataTable, Empty, ErrorLine, type Feedback, Notice, Status, when } from '../components';
import type { DashboardDeps, DashboardEnv, SignedInEnv } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

/** The connected apps page's routes. */
export function appsPage({ store }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The org's grants, with what the last action did. */
  const show = async (c: Context<SignedInEnv>, said: Feedback = {}) =>
    c.html(
      <Apps
        nonce={c.get('nonce')}
        session={c.get('session')}
        grants={await store.dashboard.grants(c.get('tokenHash'))}
        {...said}
      />,
    );

  app.get('/settings/apps', signedIn(), (c) => show(c));

  app.post('/settings/apps/:id/revoke', signedIn(), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such connected app in this org');
    await store.dashboard.revokeGrant(c.get('tokenHash'), id);
    return show(c, { notice: 'Revoked: the app’s tokens are refused from its next request.' });
  });
  return app;
}

/** Settings, connected apps: the org's OAuth grants; revoking one stops its tokens at once. */
function Apps(p: {
  nonce: string;
  session: DashboardSession;
  grants: Grant[];
  notice?: string | undefined;
  error?: string | undefined;
}) {
  return (
    <Page title="Settings, connected apps" nonce={p.nonce} session={p.session} section="/dashboard/settings/apps">
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      <p class="lead">Applications that members let use this org’s memory through OAuth.</p>
      {p.grants.length === 0 ? (
        <Empty title="No app has been connected yet.">
          <p>
            When an MCP client signs in with OAuth, you choose the org it may use; it is listed here, and you can revoke
            it at any time.
          </p>
        </Empty>
      ) : (
        <DataTable
          caption="Connected apps"
          rows={p.grants}
          columns={[
            { label: 'App', cell: (g) => g.client_name },
            { label: 'Client id', cell: (g) => <code>{g.client_id}</code> },
            {
              label: 'Agent',
              cell: (g) =>
                g.agent ? (
                  <>
                    bound to <AgentName name={g.agent} />
                  </>
                ) : (
                  'the app, or any it names'
                ),
            },
            { label: 'Allowed by', cell: (g) => g.user },
            { label: 'Allowed', cell: (g) => when(g.created_at) },
            { label: 'Last used', cell: (g) => when(g.last_used_at) },
            { label: 'Status', cell: (g) => <Status revokedAt={g.revoked_at} /> },
            {
              label: 'Actions',
              cell: (g) =>
                g.revoked_at ? null : (
                  <form class="inline" method="post" action={`/dashboard/settings/apps/${g.id}/revoke`}>
                    <input type="hidden" name="_csrf" value={p.session.csrf} />
                    <button type="submit" class="danger-quiet small" aria-label={`Revoke ${g.client_name}`}>
                      Revoke
                    </button>
                  </form>
                ),
            },
          ]}
        />
      )}
    </Page>
  );
}
