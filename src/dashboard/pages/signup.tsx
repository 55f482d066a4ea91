/** @jsxImportSource hono/jsx */
/** Sign-up (/dashboard/signup): an account and its first org in one step; closed by CAIRN_SIGNUP=closed. */
import { type Context, Hono } from 'hono';
import { hashPassword, normaliseEmail, PASSWORD_RULE, passwordOk } from '../../auth/accounts';
import { TooManyRequests } from '../../domain/errors';
import { uuidv7 } from '../../domain/ids';
import { AccountPage, nextOf, withNext } from '../account-form';
import { type DashboardDeps, type DashboardEnv, formOf } from '../context';
import { anonymousForm, anonymousFormToken } from '../csrf';
import { errorText } from '../errors';
import { Page } from '../layout';
import { startSession } from '../session';

/** The sign-up page's routes. */
export function signupPage({ store, signupOpen, log, creations, addressOf }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The form again, as it was filled in, saying what to fix. */
  const again = async (c: Context<DashboardEnv>, error: string, status: 403 | 409 | 422 | 429) => {
    const field = await formOf(c);
    return c.html(
      <SignUp
        nonce={c.get('nonce')}
        csrf={anonymousFormToken(c)}
        error={error}
        email={field('email')}
        org={field('org').trim()}
        next={nextOf(field('next'))}
      />,
      status,
    );
  };

  app.use('/signup', async (c, next) => {
    if (signupOpen) return next();
    return c.html(<SignupClosed nonce={c.get('nonce')} />, 403);
  });
  app.get('/signup', (c) =>
    c.html(<SignUp nonce={c.get('nonce')} csrf={anonymousFormToken(c)} next={nextOf(c.req.query('next'))} />),
  );
  app.post(
    '/signup',
    anonymousForm((c) => again(c, 'The form has expired; try again.', 403)),
    async (c) => {
      // every sign-up counts against its address (http/failures.ts, door `signup`)
      const bucket = `signup:${addressOf(c)}`;
      try {
        await creations.attempt(bucket);
      } catch (err) {
        if (!(err instanceof TooManyRequests)) throw err;
        const minutes = Math.ceil(err.info.retry_after / 60);
        return again(c, `Too many sign-ups from your network address; try again in ${minutes} minute(s).`, 429);
      }
      const field = await formOf(c);
      const email = normaliseEmail(field('email'));
      const org = field('org').trim();
      const password = field('password');
      if (!email) return again(c, 'Enter an email address like name@example.com.', 422);
      if (!passwordOk(password)) return again(c, `Choose ${PASSWORD_RULE}.`, 422);
      if (!org || org.length > 100) return again(c, 'Name your organisation (up to 100 characters).', 422);
      const userId = uuidv7();
      try {
        await store.dashboard.signup(userId, email, await hashPassword(password), uuidv7(), org);
      } catch (err) {
        return again(c, errorText(err, log), 409);
      }
      await startSession(c, store, userId);
      return c.redirect(nextOf(field('next')) ?? '/dashboard/settings/keys', 303);
    },
  );
  return app;
}

function SignUp(p: {
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

function SignupClosed(p: { nonce: string }) {
  return (
    <Page title="Sign-up is closed" nonce={p.nonce}>
      <p>
        Accounts on this server are made by its operator, with{' '}
        <code>npx cairn user create --org ORG_ID --email you@example.com</code>.
      </p>
      <p class="actions">
        <a class="button" href="/dashboard/signin">
          Sign in
        </a>
      </p>
    </Page>
  );
}
