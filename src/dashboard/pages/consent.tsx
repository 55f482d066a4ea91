/** @jsxImportSource hono/jsx */
/**
 * OAuth consent (/dashboard/authorize), the authorization endpoint. A request is checked (client,
 * redirect URI, then PKCE, resource, scope: an error goes back to the client only when the
 * signed-in user already consented to it, else it is shown here); a user not signed in signs in
 * first and comes back; consent already given to the client is used again; otherwise the user picks the org and allows
 * or denies, and the browser goes back to the client with a code or the refusal.
 */

import { type Context, Hono } from 'hono';
import { newOpaqueToken, opaqueHash } from '../../auth/oauth-tokens';
import { agentName } from '../../domain/agents';
import { Forbidden } from '../../domain/errors';
import type { DashboardSession } from '../../domain/ports';
import { AUTHORIZE_FIELDS, authorizeFields, checkAuthorize, redirectTo } from '../../oauth/authorize';
import { issuerOf, resourceOf } from '../../oauth/routes';
import { type DashboardDeps, type DashboardEnv, formOf } from '../context';
import { sessionFormToken } from '../csrf';
import { Page } from '../layout';
import { orgDetail } from './orgs';

/** How long a code waits for its exchange. */
const CODE_SECONDS = 60;

/** The consent page's routes. */
export function consentPage({ store, publicUrl, oauth }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();

  /** The authorization request `q`, and the user's answer once given (`decision`, for `orgId`). */
  const authorize = async (
    c: Context<DashboardEnv>,
    q: Record<string, string | undefined>,
    decision?: string,
    orgId?: string,
    agent: string | null = null,
  ) => {
    const issuer = issuerOf(publicUrl, c);
    const checked = await checkAuthorize(q, {
      store,
      fetchMetadata: oauth.fetchMetadata,
      resource: resourceOf(publicUrl, c),
      issuer,
    });
    const shown = (message: string) => c.html(<AuthorizeError nonce={c.get('nonce')} message={message} />, 400);
    if ('page' in checked) return shown(checked.page);
    const session = c.get('session');
    if ('refused' in checked) {
      const { client, error, description, redirect } = checked.refused;
      // back to the client only for a signed-in user's standing consent to it (RFC 9700 §4.11.2)
      const trusted = session && (await store.oauth.consent(c.get('tokenHash'), client.id, resourceOf(publicUrl, c)));
      if (trusted) return c.redirect(redirect, 303);
      return shown(`The application ${client.name} sent a request that cannot be used (${error}: ${description}).`);
    }
    const r = checked.ok;
    if (!session) {
      return c.redirect(
        `/dashboard/signin?${new URLSearchParams({ next: `/dashboard/authorize?${new URLSearchParams(authorizeFields(q))}` })}`,
        303,
      );
    }
    const back = (params: Record<string, string>) =>
      c.redirect(redirectTo(r.redirectUri, { ...params, state: r.state }, issuer), 303);
    let org = orgId;
    let bound = agent;
    if (decision === undefined) {
      // consent given before is reused as given: the same org, the same agent (or none)
      const given = await store.oauth.consent(c.get('tokenHash'), r.client.id, r.resource);
      org = given?.org_id;
      bound = given?.agent ?? null;
      if (!org) {
        const target = new URL(r.redirectUri);
        c.set(
          'formTarget',
          target.protocol === 'https:' || target.protocol === 'http:' ? target.origin : target.protocol,
        );
        return c.html(
          <Consent
            nonce={c.get('nonce')}
            session={session}
            clientName={r.client.name}
            clientId={r.client.id}
            redirectHost={target.host || target.protocol}
            fields={authorizeFields(q)}
          />,
        );
      }
    } else if (decision !== 'allow') {
      return back({ error: 'access_denied', error_description: 'the user denied access' });
    }
    const code = newOpaqueToken();
    await store.oauth.approve(
      c.get('tokenHash'),
      {
        clientId: r.client.id,
        orgId: org ?? '',
        resource: r.resource,
        scope: r.scope,
        codeHash: await opaqueHash(code),
        redirectUri: r.redirectUri,
        challenge: r.challenge,
        agent: bound,
      },
      CODE_SECONDS,
    );
    return back({ code });
  };

  app.get('/authorize', (c) => authorize(c, c.req.query()));
  app.post('/authorize', sessionFormToken(), async (c) => {
    const field = await formOf(c);
    const session = c.get('session');
    const q = Object.fromEntries(AUTHORIZE_FIELDS.map((k) => [k, field(k) || undefined]));
    if (!session) return authorize(c, q);
    const orgId = field('org_id');
    if (!session.orgs.some((o) => o.id === orgId)) throw new Forbidden('org: not one of your orgs');
    // bound at consent: the app's tokens act as this agent only (agentName refuses a bad name, 422)
    return authorize(c, q, field('decision'), orgId, agentName(field('agent'), 'agent'));
  });
  return app;
}

/** The authorization request a consent form carries back, field by field. */
type AuthorizeFields = Record<string, string>;

/** OAuth consent: which app, where it will be sent, which org it may use. */
function Consent(p: {
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
        MCP. Its writes are attributed to the agent <code>{p.clientId}</code> unless it names another — or, if you bind
        it to an agent below, to that agent only: it then cannot act as any other, and its writes are verified.
      </p>
      <p>
        Once you answer, you are sent back to <strong>{p.redirectHost}</strong>. You can revoke its access at any time
        under Settings, connected apps.
      </p>
      <form class="card" method="post" action="/dashboard/authorize">
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        {Object.entries(p.fields).map(([name, value]) => (
          <input type="hidden" name={name} value={value} />
        ))}
        <label for="org_id">Org it may use</label>
        <select id="org_id" name="org_id">
          {p.session.orgs.map((o) => (
            <option value={o.id} selected={o.id === p.session.org_id}>
              {o.name} ({orgDetail(o)})
            </option>
          ))}
        </select>
        <label for="agent">Bind to agent (optional)</label>
        <input
          id="agent"
          name="agent"
          type="text"
          maxlength={128}
          placeholder="e.g. reviewer; empty: the app or whichever agent it names"
        />
        <p class="actions">
          <button type="submit" name="decision" value="allow">
            Allow
          </button>
          <button type="submit" class="secondary" name="decision" value="deny">
            Deny
          </button>
        </p>
      </form>
    </Page>
  );
}

/** An authorization request that cannot be sent back to its client: said here instead. */
function AuthorizeError(p: { nonce: string; message: string }) {
  return (
    <Page title="This sign-in link cannot be used" nonce={p.nonce}>
      <p class="error" role="alert">
        {p.message}
      </p>
      <p>Start again from the application that sent you here.</p>
    </Page>
  );
}
