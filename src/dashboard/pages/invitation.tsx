/** @jsxImportSource hono/jsx */
/**
 * An invitation's page (/dashboard/invitations/:id?code=…): the link an owner hands the person
 * they invited. Signed in with the invited email, they join or decline; the secret in the link and
 * the email are both needed (anyone may sign up with any email). Not signed in: sign in or sign up
 * first, and come back here.
 */
import { Hono } from 'hono';
import { opaqueHash } from '../../auth/oauth-tokens';
import { NotFound } from '../../domain/errors';
import { UUID_RE } from '../../domain/ids';
import type { DashboardSession, Invitation } from '../../domain/ports';
import { withNext } from '../account-form';
import { when } from '../components';
import { type DashboardDeps, type DashboardEnv, formOf } from '../context';
import { Page } from '../layout';
import { signedIn } from '../session';

/** The path of an invitation's link, which carries its secret. */
export const invitationPath = (id: string, code: string) =>
  `/dashboard/invitations/${id}?${new URLSearchParams({ code })}`;

/** The invitation page's routes. */
export function invitationPage({ store }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  const idOf = (raw: string) => {
    if (!UUID_RE.test(raw)) throw new NotFound('no such invitation');
    return raw;
  };

  app.get('/invitations/:id', async (c) => {
    const id = idOf(c.req.param('id'));
    const code = c.req.query('code') ?? '';
    const session = c.get('session');
    if (!session) return c.redirect(withNext('/dashboard/signin', invitationPath(id, code)), 303);
    const invitation = await store.dashboard.invitation(c.get('tokenHash') as string, id, await opaqueHash(code));
    if (!invitation)
      throw new NotFound('no such invitation: it was answered, taken back or has lapsed, or the link is incomplete');
    return c.html(<Answer nonce={c.get('nonce')} session={session} invitation={invitation} code={code} />);
  });

  app.post('/invitations/:id/:answer{accept|decline}', signedIn(), async (c) => {
    const id = idOf(c.req.param('id'));
    const code = (await formOf(c))('code');
    await store.dashboard.answerInvitation(
      c.get('tokenHash'),
      id,
      c.req.param('answer') === 'accept',
      await opaqueHash(code),
    );
    return c.redirect('/dashboard', 303);
  });
  return app;
}

function Answer(p: { nonce: string; session: DashboardSession; invitation: Invitation; code: string }) {
  const i = p.invitation;
  return (
    <Page title={`Join ${i.org_name}?`} nonce={p.nonce} session={p.session}>
      <p class="lead">
        {i.invited_by} invites {i.email} to the org <strong>{i.org_name}</strong> (id …{i.org_id.slice(-8)}), until{' '}
        {when(i.expires_at)}. Members see its memory, artifacts, ledger and usage, and manage its API keys.
      </p>
      {i.yours ? (
        <form class="actions" method="post" action={`/dashboard/invitations/${i.id}/accept`}>
          <input type="hidden" name="_csrf" value={p.session.csrf} />
          <input type="hidden" name="code" value={p.code} />
          <button type="submit">Join {i.org_name}</button>
          <button type="submit" class="secondary" formaction={`/dashboard/invitations/${i.id}/decline`}>
            Decline
          </button>
        </form>
      ) : (
        <p role="alert">
          This invitation is for {i.email}, and you are signed in as {p.session.email}. Sign out and sign in (or sign
          up) with {i.email}, then open the link again.
        </p>
      )}
    </Page>
  );
}
