/** @jsxImportSource hono/jsx */
/**
 * Settings, members (/dashboard/settings/members): everyone sees who belongs and who is invited;
 * owners invite people by email (they join by accepting, on their Orgs page) and remove members.
 */
import { type Context, Hono } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { normaliseEmail } from '../../auth/accounts';
import { newOpaqueToken, opaqueHash } from '../../auth/oauth-tokens';
import { NotFound } from '../../domain/errors';
import { UUID_RE } from '../../domain/ids';
import type { DashboardSession, Member } from '../../domain/ports';
import type { ApiKeyInfo } from '../../domain/types';
import { issuerOf } from '../../oauth/routes';
import { AgentName } from '../agent-name';
import { DataTable, ErrorLine, type Feedback, Notice, when } from '../components';
import { type DashboardDeps, type DashboardEnv, formOf, type SignedInEnv } from '../context';
import { errorStatus, errorText } from '../errors';
import { Page } from '../layout';
import { signedIn } from '../session';
import { invitationPath } from './invitation';

const SECTION = '/dashboard/settings/members';

/** The members page's routes. */
export function membersPage({ store, log, publicUrl }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The org's members, with what the last action did. */
  const show = async (c: Context<SignedInEnv>, said: Feedback = {}, status: ContentfulStatusCode = 200) =>
    c.html(
      <Members
        nonce={c.get('nonce')}
        session={c.get('session')}
        members={await store.dashboard.members(c.get('tokenHash'))}
        {...said}
      />,
      status,
    );

  app.get('/settings/members', signedIn(), (c) => show(c));

  app.post('/settings/members', signedIn(), async (c) => {
    const email = normaliseEmail((await formOf(c))('email'));
    if (!email) return show(c, { error: 'Enter an email address like name@example.com.' }, 422);
    const code = newOpaqueToken();
    let invited: { id: string; expires_at: string };
    try {
      invited = await store.dashboard.addMember(c.get('tokenHash'), email, await opaqueHash(code));
    } catch (err) {
      return show(c, { error: errorText(err, log) }, errorStatus(err));
    }
    // the same words whether or not an account has this email; the link is shown this once
    const link = `${issuerOf(publicUrl, c)}${invitationPath(invited.id, code)}`;
    return show(c, {
      notice: `${email} is invited until ${when(invited.expires_at)}. Give them this link (shown once): ${link} — they join by opening it signed in with this email (signing up with it first if they have no account).`,
    });
  });

  app.post('/settings/members/invitations/:id/cancel', signedIn(), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such invitation');
    try {
      await store.dashboard.cancelInvitation(c.get('tokenHash'), id);
    } catch (err) {
      return show(c, { error: errorText(err, log) }, errorStatus(err));
    }
    return show(c, { notice: 'The invitation was taken back.' });
  });

  // what removing (or leaving) takes away, shown before it is done
  app.get('/settings/members/:id/remove', signedIn(), async (c) => {
    const id = c.req.param('id');
    const member = (await store.dashboard.members(c.get('tokenHash'))).find(
      (m) => m.user_id !== null && m.user_id === id,
    );
    if (!member) throw new NotFound('no such member');
    const keys = (await store.dashboard.keys(c.get('tokenHash'))).filter(
      (k) => k.created_by === member.email && !k.revoked_at,
    );
    return c.html(<RemoveMember nonce={c.get('nonce')} session={c.get('session')} member={member} keys={keys} />);
  });

  app.post('/settings/members/:id/remove', signedIn(), async (c) => {
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such member');
    try {
      await store.dashboard.removeMember(c.get('tokenHash'), id);
    } catch (err) {
      return show(c, { error: errorText(err, log) }, errorStatus(err));
    }
    if (id === c.get('session').user_id) return c.redirect('/dashboard', 303); // left the org
    return show(c, { notice: 'The member was removed.' });
  });
  return app;
}

/** Settings, members: everyone sees who belongs and who is invited; owners invite and remove. */
function Members(p: { nonce: string; session: DashboardSession; members: Member[]; notice?: string; error?: string }) {
  const owner = p.session.orgs.find((o) => o.id === p.session.org_id)?.role === 'owner';
  return (
    <Page title="Settings, members" nonce={p.nonce} session={p.session} section={SECTION}>
      <Notice text={p.notice} />
      <ErrorLine error={p.error} />
      <p class="lead">
        Members see this org’s memory, artifacts, ledger and usage, and manage its API keys; anyone may leave. Owners
        also invite and remove members: an invited person joins when they accept. A member who goes takes the API keys
        they created and the apps they connected with them (revoked).
      </p>
      {owner ? (
        <form class="card" method="post" action="/dashboard/settings/members">
          <input type="hidden" name="_csrf" value={p.session.csrf} />
          <label for="email">Email of the person to invite</label>
          <input id="email" name="email" type="email" required autocomplete="off" aria-describedby="email-hint" />
          <p class="actions">
            <button type="submit">Invite</button>
            <small id="email-hint">
              You get a link to give them; they join by opening it signed in with this email (signing up first if need
              be).
            </small>
          </p>
        </form>
      ) : null}
      <DataTable
        caption="Members of this org"
        rows={p.members}
        columns={[
          { label: 'Email', cell: (m) => m.email },
          { label: 'Role', cell: (m) => (m.role === 'invited' ? `invited by ${m.invited_by}` : m.role) },
          {
            label: 'Joined',
            cell: (m) =>
              m.role === 'invited' ? `invited ${when(m.joined_at)}, until ${when(m.expires_at)}` : when(m.joined_at),
          },
          {
            label: 'Actions',
            cell: (m) =>
              m.role === 'invited' ? (
                owner ? (
                  <form
                    class="inline"
                    method="post"
                    action={`/dashboard/settings/members/invitations/${m.invitation_id}/cancel`}
                  >
                    <input type="hidden" name="_csrf" value={p.session.csrf} />
                    <button type="submit" class="small secondary" aria-label={`Take back the invitation of ${m.email}`}>
                      Take back
                    </button>
                  </form>
                ) : null
              ) : owner || m.user_id === p.session.user_id ? (
                <a
                  href={`/dashboard/settings/members/${m.user_id}/remove`}
                  aria-label={m.user_id === p.session.user_id ? 'Leave this org' : `Remove ${m.email}`}
                  class="button small danger-quiet"
                >
                  {m.user_id === p.session.user_id ? 'Leave…' : 'Remove…'}
                </a>
              ) : null,
          },
        ]}
      />
    </Page>
  );
}

/** Removing a member, or leaving: the keys that go with them, before it is done. */
function RemoveMember(p: { nonce: string; session: DashboardSession; member: Member; keys: ApiKeyInfo[] }) {
  const self = p.member.user_id === p.session.user_id;
  return (
    <Page
      title={self ? 'Leave this org?' : `Remove ${p.member.email}?`}
      nonce={p.nonce}
      session={p.session}
      section={SECTION}
    >
      <p>
        {self ? 'You lose' : `${p.member.email} loses`} this org’s memory, artifacts, ledger and settings at once.
        {p.keys.length
          ? ` These API keys ${self ? 'you' : 'they'} created are revoked with it (agents using them are refused from their next request):`
          : ` No API key ${self ? 'you' : 'they'} created is still active.`}{' '}
        Apps {self ? 'you' : 'they'} connected with OAuth lose their access too.
      </p>
      {p.keys.length ? (
        <ul>
          {p.keys.map((k) => (
            <li>
              {k.name} (<code>{k.prefix}…</code>
              {k.agent ? (
                <>
                  , bound to <AgentName name={k.agent} />
                </>
              ) : null}
              )
            </li>
          ))}
        </ul>
      ) : null}
      <form class="actions" method="post" action={`/dashboard/settings/members/${p.member.user_id}/remove`}>
        <input type="hidden" name="_csrf" value={p.session.csrf} />
        <button type="submit" class="danger">
          {self ? 'Leave the org' : 'Remove member'}
        </button>
        <a class="button secondary" href="/dashboard/settings/members">
          Cancel
        </a>
      </form>
    </Page>
  );
}
