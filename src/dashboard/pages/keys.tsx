/** @jsxImportSource hono/jsx */
/**
 * Settings, API keys (/dashboard/settings/keys): the org's keys, a new one (its secret shown once,
 * with the client configuration filled in), and revoking one after confirming.
 */
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { newKey } from '../../auth/keys';
import { agentName } from '../../domain/agents';
import { Invalid, NotFound } from '../../domain/errors';
import { UUID_RE } from '../../domain/ids';
import type { DashboardSession } from '../../domain/ports';
import type { ApiKeyInfo } from '../../domain/types';
import { issuerOf } from '../../oauth/routes';
import { AgentName } from '../agent-name';
import { DataTable, Empty, ErrorLine, type Feedback, Notice, Status, when } from '../components';
import { type DashboardDeps, type DashboardEnv, formOf, type SignedInEnv } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

const SECTION = '/dashboard/settings/keys';

/** The keys page's routes. */
export function keysPage({ store, publicUrl }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The list of the org's keys, with what the last action did. */
  const show = async (c: Context<SignedInEnv>, said: Feedback = {}, status: ContentfulStatusCode = 200) =>
    c.html(
      <Keys
        nonce={c.get('nonce')}
        session={c.get('session')}
        keys={await store.dashboard.keys(c.get('tokenHash'))}
        {...said}
      />,
      status,
    );

  app.get('/settings/keys', signedIn(), (c) => show(c));

  app.post('/settings/keys', signedIn(), async (c) => {
    const form = await formOf(c);
    const name = form('name').trim();
    if (!name || name.length > 100) return show(c, { error: 'Name the key (up to 100 characters).' }, 422);
    let agent: string | null;
    try {
      agent = agentName(form('agent'), 'agent');
    } catch (err) {
      if (!(err instanceof Invalid)) throw err;
      return show(c, { error: `The agent to bind the key to ${err.reason}.` }, 422);
    }
    const { secret, key } = await newKey(name, agent);
    const info = await store.dashboard.createKey(c.get('tokenHash'), key);
    return c.html(
      <KeyCreated
        nonce={c.get('nonce')}
        session={c.get('session')}
        apiKey={info}
        secret={secret}
        mcpUrl={`${issuerOf(publicUrl, c)}/mcp`}
      />,
    );
  });

  app.get('/settings/keys/:id/revoke', signedIn(), async (c) => {
    const key = (await store.dashboard.keys(c.get('tokenHash'))).find((k) => k.id === c.req.param('id'));
    if (!key) throw new NotFound('no such key in this org');
    return c.html(<RevokeKey nonce={c.get('nonce')} session={c.get('session')} apiKey={key} />);
  });

  app.post('/settings/keys/:id/revoke', signedIn(), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such key in this org');
    // the revoke statement checks the key is the org's (404 otherwise) and returns it
    const key = await store.dashboard.revokeKey(c.get('tokenHash'), id);
    return show(c, { notice: `Key “${key.name}” is revoked; its next request is refused.` });
  });
  return app;
}

function Keys(p: { nonce: string; session: DashboardSession; keys: ApiKeyInfo[]; notice?: string; error?: string }) {
  return (
    <Page title="Settings, API keys" nonce={p.nonce} session={p.session} section={SECTION}>
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      <p class="lead">
        An API key lets agents of this org call Cairn over MCP; a revoked key is refused. A key bound to an agent acts
        as that agent only: its writes are attributed to it, its private notes are its own, and it cannot name another
        agent in <code>X-Svc-Agent</code>. An unbound key acts as whichever agent the header names.
      </p>
      <form class="card" method="post" action="/dashboard/settings/keys">
        <h2>New key</h2>
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <label for="name">Name of a new key</label>
        <input id="name" name="name" type="text" required maxlength={100} placeholder="e.g. build agents" />
        <label for="agent">Bind to agent (optional)</label>
        <input id="agent" name="agent" type="text" maxlength={128} placeholder="e.g. reviewer; empty: any agent" />
        <p class="actions">
          <button type="submit">Create key</button>
        </p>
      </form>
      {p.keys.length === 0 ? (
        <Empty title="No keys yet.">
          <p>Create the org’s first key above: its secret and a ready-made client configuration are shown next.</p>
        </Empty>
      ) : (
        <DataTable
          caption="Keys of this org"
          rows={p.keys}
          columns={[
            { label: 'Name', cell: (k) => k.name },
            { label: 'Prefix', cell: (k) => <code>{k.prefix}…</code> },
            {
              label: 'Agent',
              cell: (k) =>
                k.agent ? (
                  <>
                    bound to <AgentName name={k.agent} />
                  </>
                ) : (
                  'any (X-Svc-Agent)'
                ),
            },
            { label: 'Created by', cell: (k) => k.created_by },
            { label: 'Created', cell: (k) => when(k.created_at) },
            { label: 'Last used', cell: (k) => when(k.last_used_at) },
            { label: 'Status', cell: (k) => <Status revokedAt={k.revoked_at} /> },
            {
              label: 'Actions',
              cell: (k) =>
                k.revoked_at ? null : (
                  <a
                    href={`/dashboard/settings/keys/${k.id}/revoke`}
                    aria-label={`Revoke ${k.name}`}
                    class="button small danger-quiet"
                  >
                    Revoke…
                  </a>
                ),
            },
          ]}
        />
      )}
    </Page>
  );
}

function KeyCreated(p: {
  nonce: string;
  session: DashboardSession;
  apiKey: ApiKeyInfo;
  secret: string;
  mcpUrl: string;
}) {
  const config = JSON.stringify(
    {
      mcpServers: {
        cairn: {
          type: 'http',
          url: p.mcpUrl,
          headers: { 'X-Svc-Key': p.secret, ...(p.apiKey.agent ? {} : { 'X-Svc-Agent': 'my-agent' }) },
        },
      },
    },
    null,
    2,
  );
  return (
    <Page title={`Key “${p.apiKey.name}” created`} nonce={p.nonce} session={p.session} section={SECTION}>
      <p class="notice" role="status">
        Copy the key now: it is shown once and cannot be shown again.
      </p>
      <p class="secret">
        <code id="secret">{p.secret}</code>
        <button type="button" class="small" data-copy="secret">
          Copy key
        </button>
      </p>
      <h2>Client configuration</h2>
      {p.apiKey.agent ? (
        <p>
          This key is bound to agent <AgentName name={p.apiKey.agent} strong />: every call with it acts as that agent,
          without an <code>X-Svc-Agent</code> header. Add <code>X-Svc-Project</code> with a git remote URL or an
          absolute path to scope its memory to a project.
        </p>
      ) : (
        <p>
          Give each agent its own name in <code>X-Svc-Agent</code>; add <code>X-Svc-Project</code> with a git remote URL
          or an absolute path to scope its memory to a project.
        </p>
      )}
      <pre id="config">{config}</pre>
      <p class="actions">
        <button type="button" class="secondary" data-copy="config">
          Copy configuration
        </button>
        <a href="/dashboard/settings/keys">Back to API keys</a>
      </p>
    </Page>
  );
}

function RevokeKey(p: { nonce: string; session: DashboardSession; apiKey: ApiKeyInfo }) {
  return (
    <Page title={`Revoke key “${p.apiKey.name}”?`} nonce={p.nonce} session={p.session} section={SECTION}>
      <p>
        Agents using the key starting <code>{p.apiKey.prefix}</code> are refused from their next request. This cannot be
        undone.
      </p>
      <form class="actions" method="post" action={`/dashboard/settings/keys/${p.apiKey.id}/revoke`}>
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <button type="submit" class="danger">
          Revoke key
        </button>
        <a class="button secondary" href="/dashboard/settings/keys">
          Cancel
        </a>
      </form>
    </Page>
  );
}
