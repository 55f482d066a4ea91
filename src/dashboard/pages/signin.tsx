/** @jsxImportSource hono/jsx */
/**
 * Sign-in and sign-out (/dashboard/signin, /dashboard/signout). A wrong password and an unknown
 * email cost and answer the same; failures are limited per client address.
 */
import { type Context, Hono } from 'hono';
import { hashPassword, verifyPassword } from '../../auth/accounts';
import { randomToken } from '../../domain/crypto';
import { TooManyRequests } from '../../domain/errors';
import { AccountPage, nextOf, withNext } from '../account-form';
import { type DashboardDeps, type DashboardEnv, formOf, toSignIn } from '../context';
import { anonymousForm, anonymousFormToken, sessionFormToken } from '../csrf';
import { endSession, startSession } from '../session';

/** Checked against when an email has no account, so that a wrong email costs what a wrong password does. */
let dummyHash: Promise<string> | undefined;

/** The sign-in page's routes, and sign-out. */
export function signinPage({ store, signupOpen, failures, addressOf }: DashboardDeps) {
  const app = new Hono<DashboardEnv>();
  /** The form again, with the email given, saying what went wrong. */
  const again = async (c: Context<DashboardEnv>, error: string, status: 401 | 403 | 429) => {
    const field = await formOf(c);
    return c.html(
      <SignIn
        nonce={c.get('nonce')}
        csrf={anonymousFormToken(c)}
        error={error}
        email={field('email').trim().toLowerCase()}
        signupOpen={signupOpen}
        next={nextOf(field('next'))}
      />,
      status,
    );
  };

  app.get('/signin', (c) =>
    c.html(
      <SignIn
        nonce={c.get('nonce')}
        csrf={anonymousFormToken(c)}
        signupOpen={signupOpen}
        next={nextOf(c.req.query('next'))}
      />,
    ),
  );
  app.post(
    '/signin',
    anonymousForm((c) => again(c, 'The form has expired; try again.', 403)),
    async (c) => {
      const field = await formOf(c);
      const bucket = `signin:${addressOf(c)}`;
      try {
        failures.check(bucket);
        const account = await store.dashboard.account(field('email').trim().toLowerCase());
        dummyHash ??= hashPassword(randomToken());
        const ok = await verifyPassword(field('password'), account?.password_hash ?? (await dummyHash));
        if (account && ok) {
          const to = nextOf(field('next')) ?? '/dashboard';
          await startSession(c, store, account.user_id);
          return c.redirect(to, 303);
        }
        await failures.failed(bucket);
      } catch (err) {
        if (!(err instanceof TooManyRequests)) throw err;
        c.header('Retry-After', String(err.info.retry_after));
        const minutes = Math.ceil(err.info.retry_after / 60);
        return again(c, `Too many failed sign-ins from your network address; try again in ${minutes} minute(s).`, 429);
      }
      return again(c, 'Wrong email or password.', 401);
    },
  );

  app.post('/signout', sessionFormToken(), async (c) => {
    await endSession(c, store);
    return toSignIn(c);
  });
  return app;
}

function SignIn(p: {
  nonce: string;
  csrf: string;
  error?: string;
  email?: string;
  signupOpen: boolean;
  next?: string | undefined;
}) {
  return (
    <AccountPage
      {...p}
      title="Sign in"
      action="/dashboard/signin"
      password={{ label: 'Password', autocomplete: 'current-password' }}
      submit="Sign in"
      footer={
        p.signupOpen ? (
          <>
            New here? <a href={withNext('/dashboard/signup', p.next)}>Create an account</a>
          </>
        ) : (
          'Accounts on this server are made by its operator.'
        )
      }
    />
  );
}
