/** @jsxImportSource hono/jsx */
/**
 * The first start's setup link (/dashboard/setup?token=…, src/auth/setup.ts): whoever opens the
 * link the server printed makes the account that owns the org `default` — or, with the email and
 * password of an account they already have, makes that account its owner. Works with sign-up
 * closed: the link is the operator's own invitation. Wrong passwords count as failed sign-ins.
 */
import { type Context, Hono } from 'hono';
import { hashPassword, normaliseEmail, PASSWORD_RULE, passwordOk, verifyPassword } from '../../auth/accounts';
import { TooManyRequests } from '../../domain/errors';
import { uuidv7 } from '../../domain/ids';
import { AccountPage } from '../account-form';
import { type DashboardDeps, type DashboardEnv, formOf } from '../context';
import { anonymousForm, anonymousFormToken } from '../csrf';
import { errorText } from '../errors';
import { problem } from '../problem';
import { startSession } from '../session';

const GONE =
  'This setup link opens nothing any more: it was used, it expired (after 24 hours), or the server has restarted since it printed it. While org “default” has no owner, each start prints a new one; else sign in';

/** The setup page's routes. */
export function setupPage({ store, setup, log, failures, addressOf }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The org the token opens, if the link is current and the org still has no owner. */
  const opened = async (token: string) => {
    const orgId = (await setup?.open(token)) ?? null;
    if (orgId && (await store.admin.setupOrg()) !== orgId) {
      setup?.spend(); // owned meanwhile (by another process, or `cairn user create`)
      return null;
    }
    return orgId;
  };
  /** The form again, as it was filled in, saying what to fix. */
  const again = async (c: Context<DashboardEnv>, error: string, status: 401 | 403 | 409 | 422 | 429) => {
    const field = await formOf(c);
    return c.html(
      <Setup
        nonce={c.get('nonce')}
        csrf={anonymousFormToken(c)}
        token={field('token')}
        error={error}
        email={field('email')}
      />,
      status,
    );
  };

  app.get('/setup', async (c) => {
    const token = c.req.query('token') ?? '';
    if (!(await opened(token))) return problem(c, 410, GONE);
    return c.html(<Setup nonce={c.get('nonce')} csrf={anonymousFormToken(c)} token={token} />);
  });
  app.post(
    '/setup',
    anonymousForm((c) => again(c, 'The form has expired; try again.', 403)),
    async (c) => {
      const field = await formOf(c);
      const bucket = `signin:${addressOf(c)}`;
      try {
        failures.check(bucket);
      } catch (err) {
        if (!(err instanceof TooManyRequests)) throw err;
        const minutes = Math.ceil(err.info.retry_after / 60);
        return again(c, `Too many failed attempts from your network address; try again in ${minutes} minute(s).`, 429);
      }
      const orgId = await opened(field('token'));
      if (!orgId) {
        await failures.failed(bucket);
        return problem(c, 410, GONE);
      }
      const email = normaliseEmail(field('email'));
      const password = field('password');
      if (!email) return again(c, 'Enter an email address like name@example.com.', 422);
      const account = await store.dashboard.account(email);
      let userId: string;
      try {
        if (account) {
          if (!(await verifyPassword(password, account.password_hash))) {
            await failures.failed(bucket);
            return again(c, 'An account with this email exists: enter its password to make it the owner.', 401);
          }
          userId = account.user_id;
          await store.dashboard.setup(orgId, userId, email, null);
        } else {
          if (!passwordOk(password)) return again(c, `Choose ${PASSWORD_RULE}.`, 422);
          userId = uuidv7();
          await store.dashboard.setup(orgId, userId, email, await hashPassword(password));
        }
      } catch (err) {
        return again(c, errorText(err, log), 409);
      }
      setup?.spend();
      const session = await startSession(c, store, userId);
      await store.dashboard.switchOrg(session, orgId); // an existing account's session shows its first org
      return c.redirect('/dashboard/memory', 303);
    },
  );
  return app;
}

function Setup(p: { nonce: string; csrf: string; token: string; error?: string; email?: string }) {
  return (
    <AccountPage
      {...p}
      title="Set up Cairn"
      action="/dashboard/setup"
      intro={
        <p>
          Create the account that owns the org <strong>default</strong> — the org of the API key this server printed at
          its first start, where your agents write. Already have an account here? Enter its email and password to make
          it the owner.
        </p>
      }
      password={{ label: 'Password (at least 12 characters)', autocomplete: 'new-password', minlength: 12 }}
      extra={<input type="hidden" name="token" value={p.token} />}
      submit="Create the owner’s account"
      footer={
        <>
          This link works once. Have an account that owns it already? <a href="/dashboard/signin">Sign in</a>
        </>
      }
    />
  );
}
