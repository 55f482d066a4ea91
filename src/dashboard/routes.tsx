/** @jsxImportSource hono/jsx */
/**
 * /dashboard: accounts (sign up, sign in, sign out), the user's orgs, and Settings → API keys.
 * Sessions: a random token in an HttpOnly, SameSite=Lax cookie (`__Host-` and Secure on HTTPS);
 * only its hash is stored. Every form carries a token: the session's for signed-in forms, a
 * double-submit cookie for the sign-in and sign-up forms; a cross-site Origin is refused as well.
 */
import { type Context, Hono } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { hashPassword, normaliseEmail, PASSWORD_RULE, passwordOk, verifyPassword } from '../auth/accounts';
import { newKey } from '../auth/keys';
import { newOpaqueToken, opaqueHash } from '../auth/oauth-tokens';
import { randomToken, sha256Hex } from '../domain/crypto';
import { CairnError, Forbidden, Invalid, NotFound, TooManyRequests, Unauthorized } from '../domain/errors';
import { uuidv7 } from '../domain/ids';
import { verifyChain } from '../domain/ledger';
import type { BlobStore, DashboardSession, Store } from '../domain/ports';
import { resolveProject } from '../domain/projects';
import { KINDS } from '../domain/types';
import type { FailureLimiter } from '../http/failures';
import { AUTHORIZE_FIELDS, authorizeFields, checkAuthorize, redirectTo } from '../oauth/authorize';
import { issuerOf, type OAuthOptions, resourceOf } from '../oauth/routes';
import {
  Apps,
  Artifacts,
  AuthorizeError,
  Consent,
  EntryView,
  KeyCreated,
  Keys,
  Ledger,
  Members,
  Memory,
  type MemoryFilter,
  Orgs,
  RevokeKey,
  SignIn,
  SignUp,
  SignupClosed,
  Usage,
} from './views';

const SESSION_SECONDS = 14 * 24 * 3600;
const LEDGER_PAGE = 50;
const CODE_SECONDS = 60;
/** Only an authorization request waiting for consent may be returned to after signing in. */
const nextOf = (next: string | undefined) => (next?.startsWith('/dashboard/authorize?') ? next : undefined);
const USAGE_DAYS = 30;
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DATE_RE = /^\d{4}-\d{2}-\d{2}$/;
/** Checked against when an email has no account, so that a wrong email costs what a wrong password does. */
let dummyHash: Promise<string> | undefined;

interface Options {
  store: Store;
  blobs: BlobStore;
  /** CAIRN_BASE_URL, if set; else the request's origin. */
  publicUrl: string | undefined;
  /** The authorization server's settings: the consent step is the dashboard's. */
  oauth: Pick<OAuthOptions, 'fetchMetadata'>;
  signupOpen: boolean;
  log: (message: string, err?: unknown) => void;
  failures: FailureLimiter;
  addressOf: (c: Context) => string;
}

type Notice = { notice?: string; error?: string };
type SettingsProps<T> = { nonce: string; session: DashboardSession; rows: T } & Notice;

/** Per request: the CSP nonce, the signed-in session, and the hash its token is stored under. */
type Vars = {
  Variables: {
    nonce: string;
    session: DashboardSession | null;
    tokenHash: string;
    /** A source the page's forms may post to besides the dashboard (the consent page's redirect). */
    formTarget?: string;
  };
};

export function dashboardRoutes(opts: Options) {
  const { store, blobs, publicUrl, signupOpen, log, failures, addressOf } = opts;
  const app = new Hono<Vars>();
  const baseOf = (c: Context) => issuerOf(publicUrl, c);
  const secure = (c: Context) => baseOf(c).startsWith('https:');
  /** The session cookie's options: `__Host-` prefixed (Secure, Path=/, no Domain) on HTTPS. */
  const sessionCookie = (c: Context) =>
    secure(c) ? ({ prefix: 'host', secure: true } as const) : ({ prefix: undefined, secure: false } as const);

  app.use('*', async (c, next) => {
    if (c.req.method === 'POST') {
      const origin = c.req.header('origin');
      if (origin && origin !== 'null' && URL.parse(origin)?.host !== new URL(c.req.url).host) {
        return c.text('Cross-site form posts are refused.', 403);
      }
    }
    const nonce = randomToken(16);
    c.set('nonce', nonce);
    const token = getCookie(c, 'cairn_session', sessionCookie(c).prefix);
    const hash = token ? await sha256Hex(token) : '';
    c.set('tokenHash', hash);
    c.set('session', hash ? await store.dashboard.session(hash) : null);
    await next();
    c.header(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; form-action 'self'${c.get('formTarget') ? ` ${c.get('formTarget')}` : ''}; frame-ancestors 'none'; base-uri 'none'`,
    );
    c.header('Referrer-Policy', 'same-origin');
    c.header('Cache-Control', 'no-store');
    c.header('X-Content-Type-Options', 'nosniff');
  });

  /** The double-submit token of the anonymous forms: a cookie, and the same value in the form. */
  const anonymousToken = (c: Context) => {
    const value = getCookie(c, 'cairn_form') ?? randomToken();
    setCookie(c, 'cairn_form', value, { httpOnly: true, sameSite: 'Strict', path: '/dashboard', secure: secure(c) });
    return value;
  };
  const form = async (c: Context) => {
    const body = await c.req.parseBody();
    const field = (name: string) => (typeof body[name] === 'string' ? (body[name] as string) : '');
    return { field };
  };
  /** The signed-in session, with the form's token checked for a POST; else a redirect to sign in. */
  const signedIn = async (c: Context<Vars>, field?: (name: string) => string) => {
    const session = c.get('session');
    if (!session) return null;
    if (field && field('_csrf') !== session.csrf)
      throw new Forbidden('the form has expired; reload the page and try again');
    return session;
  };
  const toSignIn = (c: Context) => c.redirect('/dashboard/signin', 303);
  const message = (err: unknown) => {
    if (err instanceof CairnError) return err.message.replace(/^\w+: /, '');
    log('dashboard action failed', err);
    return 'Something went wrong; nothing was changed. Try again.';
  };
  const statusOf = (err: unknown) =>
    err instanceof Invalid
      ? 422
      : err instanceof Forbidden
        ? 403
        : err instanceof NotFound
          ? 404
          : err instanceof CairnError
            ? 409
            : 500;

  async function startSession(c: Context, userId: string) {
    const token = randomToken();
    await store.dashboard.startSession(await sha256Hex(token), userId, randomToken(), SESSION_SECONDS);
    setCookie(c, 'cairn_session', token, {
      httpOnly: true,
      sameSite: 'Lax',
      path: '/',
      maxAge: SESSION_SECONDS,
      ...sessionCookie(c),
    });
    deleteCookie(c, 'cairn_form', { path: '/dashboard' });
  }

  app.get('/', async (c) => {
    const session = await signedIn(c);
    return session ? c.html(<Orgs nonce={c.get('nonce')} session={session} />) : toSignIn(c);
  });

  app.use('/signup', async (c, next) => {
    if (signupOpen) return next();
    return c.html(<SignupClosed nonce={c.get('nonce')} />, 403);
  });
  app.get('/signup', (c) =>
    c.html(<SignUp nonce={c.get('nonce')} csrf={anonymousToken(c)} next={nextOf(c.req.query('next'))} />),
  );
  app.post('/signup', async (c) => {
    const { field } = await form(c);
    const email = normaliseEmail(field('email'));
    const org = field('org').trim();
    const next = nextOf(field('next'));
    const again = (error: string, status: 403 | 409 | 422) =>
      c.html(
        <SignUp
          nonce={c.get('nonce')}
          csrf={anonymousToken(c)}
          error={error}
          email={field('email')}
          org={org}
          next={next}
        />,
        status,
      );
    if (!field('_csrf') || field('_csrf') !== getCookie(c, 'cairn_form')) {
      return again('The form has expired; try again.', 403);
    }
    if (!email) return again('Enter an email address like name@example.com.', 422);
    const password = field('password');
    if (!passwordOk(password)) return again(`Choose ${PASSWORD_RULE}.`, 422);
    if (!org || org.length > 100) return again('Name your organisation (up to 100 characters).', 422);
    const userId = uuidv7();
    try {
      await store.dashboard.signup(userId, email, await hashPassword(password), uuidv7(), org);
    } catch (err) {
      return again(message(err), 409);
    }
    await startSession(c, userId);
    return c.redirect(next ?? '/dashboard/settings/keys', 303);
  });

  app.get('/signin', (c) =>
    c.html(
      <SignIn
        nonce={c.get('nonce')}
        csrf={anonymousToken(c)}
        signupOpen={signupOpen}
        next={nextOf(c.req.query('next'))}
      />,
    ),
  );
  app.post('/signin', async (c) => {
    const { field } = await form(c);
    const email = field('email').trim().toLowerCase();
    const next = nextOf(field('next'));
    const again = (error: string, status: 401 | 403 | 429) =>
      c.html(
        <SignIn
          nonce={c.get('nonce')}
          csrf={anonymousToken(c)}
          error={error}
          email={email}
          signupOpen={signupOpen}
          next={next}
        />,
        status,
      );
    if (!field('_csrf') || field('_csrf') !== getCookie(c, 'cairn_form')) {
      return again('The form has expired; try again.', 403);
    }
    const bucket = `signin:${addressOf(c)}`;
    try {
      failures.check(bucket);
      const account = await store.dashboard.account(email);
      dummyHash ??= hashPassword(randomToken());
      const ok = await verifyPassword(field('password'), account?.password_hash ?? (await dummyHash));
      if (account && ok) {
        await startSession(c, account.user_id);
        return c.redirect(next ?? '/dashboard', 303);
      }
      await failures.failed(bucket);
    } catch (err) {
      if (!(err instanceof TooManyRequests)) throw err;
      c.header('Retry-After', String(err.info.retry_after));
      return again(
        `Too many failed sign-ins from your network address; try again in ${Math.ceil(err.info.retry_after / 60)} minute(s).`,
        429,
      );
    }
    return again('Wrong email or password.', 401);
  });

  app.post('/signout', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (session) await store.dashboard.endSession(c.get('tokenHash'));
    deleteCookie(c, 'cairn_session', { path: '/', ...sessionCookie(c) });
    return toSignIn(c);
  });

  app.post('/orgs', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const name = field('name').trim();
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

  app.post('/orgs/switch', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    await store.dashboard.switchOrg(c.get('tokenHash'), field('org_id'));
    return c.redirect('/dashboard', 303);
  });

  /** A settings page: its view of the session org's rows, with a notice or an error, and a status. */
  const settingsPage =
    <T,>(load: (tokenHash: string) => Promise<T>, view: (p: SettingsProps<T>) => ReturnType<typeof Keys>) =>
    async (c: Context<Vars>, session: DashboardSession, extra: Notice = {}, status = 200) =>
      c.html(view({ nonce: c.get('nonce'), session, rows: await load(c.get('tokenHash')), ...extra }), status as 200);
  const keysPage = settingsPage(store.dashboard.keys, ({ rows, ...p }) => <Keys {...p} keys={rows} />);
  const membersPage = settingsPage(store.dashboard.members, ({ rows, ...p }) => <Members {...p} members={rows} />);
  const appsPage = settingsPage(store.dashboard.grants, ({ rows, ...p }) => <Apps {...p} grants={rows} />);

  app.get('/settings/keys', async (c) => {
    const session = await signedIn(c);
    return session ? keysPage(c, session, {}) : toSignIn(c);
  });

  app.post('/settings/keys', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const name = field('name').trim();
    if (!name || name.length > 100) return keysPage(c, session, { error: 'Name the key (up to 100 characters).' }, 422);
    const { secret, key } = await newKey(name);
    const info = await store.dashboard.createKey(c.get('tokenHash'), key);
    return c.html(
      <KeyCreated nonce={c.get('nonce')} session={session} apiKey={info} secret={secret} mcpUrl={`${baseOf(c)}/mcp`} />,
    );
  });

  app.get('/settings/keys/:id/revoke', async (c) => {
    const session = await signedIn(c);
    if (!session) return toSignIn(c);
    const key = (await store.dashboard.keys(c.get('tokenHash'))).find((k) => k.id === c.req.param('id'));
    if (!key) throw new NotFound('no such key in this org');
    return c.html(<RevokeKey nonce={c.get('nonce')} session={session} apiKey={key} />);
  });

  app.post('/settings/keys/:id/revoke', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such key in this org');
    // the revoke statement checks the key is the org's (404 otherwise) and returns it
    const key = await store.dashboard.revokeKey(c.get('tokenHash'), id);
    return keysPage(c, session, { notice: `Key “${key.name}” is revoked; its next request is refused.` });
  });

  app.get('/memory', async (c) => {
    const session = await signedIn(c);
    if (!session) return toSignIn(c);
    const q = (name: keyof MemoryFilter) => (c.req.query(name) ?? '').trim();
    const filter: MemoryFilter = {
      q: q('q'),
      project: q('project'),
      agent: q('agent'),
      kind: q('kind'),
      scope: q('scope'),
      since: q('since'),
      until: q('until'),
    };
    const notice = c.req.query('forgotten') === '1' ? 'The entry is forgotten; the ledger keeps why.' : undefined;
    const page = (hits: Parameters<typeof Memory>[0]['hits'], error?: string, status = 200) =>
      c.html(
        <Memory nonce={c.get('nonce')} session={session} filter={filter} hits={hits} error={error} notice={notice} />,
        status as 200,
      );
    if (filter.kind && !(KINDS as readonly string[]).includes(filter.kind))
      return page(null, 'Pick a kind from the list.', 422);
    if (filter.scope && filter.scope !== 'org') return page(null, 'Pick a scope from the list.', 422);
    if ((filter.since && !DATE_RE.test(filter.since)) || (filter.until && !DATE_RE.test(filter.until))) {
      return page(null, 'Give dates as YYYY-MM-DD.', 422);
    }
    if (filter.q.length > 4096) return page(null, 'Search with at most 4,096 characters.', 422);
    const project = resolveProject(filter.project || undefined);
    if (project.given && !project.recognised) {
      return page(null, 'A project is a git remote URL or an absolute path.', 422);
    }
    const hits = await store.dashboard.recall(c.get('tokenHash'), project.canonical, {
      query: filter.q,
      limit: 50,
      ...(filter.agent ? { agent: filter.agent } : {}),
      ...(filter.kind ? { kinds: [filter.kind] } : {}),
      ...(filter.scope ? { scope: filter.scope } : {}),
      ...(filter.since ? { since: `${filter.since}T00:00:00Z` } : {}),
      ...(filter.until ? { until: `${filter.until}T00:00:00Z` } : {}),
    });
    return page(hits);
  });

  const entryData = async (c: Context<Vars>) => {
    const id = c.req.param('id') ?? '';
    const data = UUID_RE.test(id) ? await store.dashboard.entry(c.get('tokenHash'), id) : null;
    if (!data) throw new NotFound('no such entry in this org');
    return data;
  };

  app.get('/memory/:id', async (c) => {
    const session = await signedIn(c);
    if (!session) return toSignIn(c);
    return c.html(<EntryView nonce={c.get('nonce')} session={session} data={await entryData(c)} />);
  });

  app.post('/memory/:id/forget', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const data = await entryData(c);
    const reason = field('reason').trim();
    if (!reason || reason.length > 500) {
      return c.html(
        <EntryView
          nonce={c.get('nonce')}
          session={session}
          data={data}
          error="Say why it must go (up to 500 characters)."
        />,
        422,
      );
    }
    await store.dashboard.forget(c.get('tokenHash'), data.entry.id, reason);
    return c.redirect('/dashboard/memory?forgotten=1', 303);
  });

  app.get('/artifacts', async (c) => {
    const session = await signedIn(c);
    if (!session) return toSignIn(c);
    const artifacts = await store.dashboard.artifacts(c.get('tokenHash'), 200);
    return c.html(<Artifacts nonce={c.get('nonce')} session={session} artifacts={artifacts} />);
  });

  /** The bytes, always as a download (never rendered on the dashboard's origin). */
  app.get('/artifacts/:id', async (c) => {
    const session = await signedIn(c);
    if (!session) return toSignIn(c);
    const id = c.req.param('id');
    const found = UUID_RE.test(id) ? await store.dashboard.artifact(c.get('tokenHash'), id) : null;
    if (!found) throw new NotFound('no such artifact in this org');
    const bytes = await blobs.get(found.blob_key);
    if (!bytes) throw new NotFound(`the bytes of artifact ${id} are missing from storage`);
    const name = found.artifact.name.split('/').pop() || 'artifact';
    return c.body(bytes as Uint8Array<ArrayBuffer>, 200, {
      'content-type': found.artifact.content_type,
      'content-disposition': `attachment; filename="${name.replace(/[^\w.-]/g, '_')}"; filename*=UTF-8''${encodeURIComponent(name)}`,
    });
  });

  app.get('/ledger', async (c) => {
    const session = await signedIn(c);
    if (!session?.org_id) return toSignIn(c);
    const orgId = session.org_id;
    const agent = (c.req.query('agent') ?? '').trim();
    const op = (c.req.query('op') ?? '').trim();
    const before = Number(c.req.query('before'));
    const events = await store.dashboard.ledger(
      c.get('tokenHash'),
      { agent: agent || null, op: op || null, before: Number.isSafeInteger(before) && before > 0 ? before : null },
      LEDGER_PAGE,
    );
    // the session's org was checked by the ledger read above; the chain is recomputed whole
    const verified = await verifyChain(orgId, (after) => store.admin.ledgerPage(orgId, after, 1000));
    const last = events.at(-1);
    return c.html(
      <Ledger
        nonce={c.get('nonce')}
        session={session}
        events={events}
        filter={{ agent, op }}
        verified={verified}
        more={events.length === LEDGER_PAGE && last ? last.seq : null}
      />,
    );
  });

  app.get('/settings/members', async (c) => {
    const session = await signedIn(c);
    return session ? membersPage(c, session, {}) : toSignIn(c);
  });

  app.post('/settings/members', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const email = normaliseEmail(field('email'));
    if (!email) return membersPage(c, session, { error: 'Enter an email address like name@example.com.' }, 422);
    try {
      await store.dashboard.addMember(c.get('tokenHash'), email);
    } catch (err) {
      return membersPage(c, session, { error: message(err) }, statusOf(err));
    }
    return membersPage(c, session, { notice: `${email} is now a member.` });
  });

  app.post('/settings/members/:id/remove', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such member');
    try {
      await store.dashboard.removeMember(c.get('tokenHash'), id);
    } catch (err) {
      return membersPage(c, session, { error: message(err) }, statusOf(err));
    }
    if (id === session.user_id) return c.redirect('/dashboard', 303); // left the org
    return membersPage(c, session, { notice: 'The member was removed.' });
  });

  // ---------------------------------------------------------------- OAuth: consent, connected apps

  /**
   * The authorization endpoint. A request is checked (client, redirect URI, then PKCE, resource,
   * scope); a user not signed in signs in first and comes back; consent already given to the
   * client is used again; otherwise the user picks the org and allows or denies.
   */
  const authorize = async (
    c: Context<Vars>,
    q: Record<string, string | undefined>,
    decision?: string,
    orgId?: string,
  ) => {
    const issuer = issuerOf(publicUrl, c);
    const checked = await checkAuthorize(q, {
      store,
      fetchMetadata: opts.oauth.fetchMetadata,
      resource: resourceOf(publicUrl, c),
      issuer,
    });
    if ('page' in checked) return c.html(<AuthorizeError nonce={c.get('nonce')} message={checked.page} />, 400);
    if ('redirect' in checked) return c.redirect(checked.redirect, 303);
    const r = checked.ok;
    const session = c.get('session');
    if (!session) {
      return c.redirect(
        `/dashboard/signin?${new URLSearchParams({ next: `/dashboard/authorize?${new URLSearchParams(authorizeFields(q))}` })}`,
        303,
      );
    }
    const back = (params: Record<string, string>) =>
      c.redirect(redirectTo(r.redirectUri, { ...params, state: r.state }, issuer), 303);
    let org = orgId;
    if (decision === undefined) {
      org = (await store.oauth.consent(c.get('tokenHash'), r.client.id, r.resource))?.org_id;
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
      },
      CODE_SECONDS,
    );
    return back({ code });
  };

  app.get('/authorize', (c) => authorize(c, c.req.query()));
  app.post('/authorize', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    const q = Object.fromEntries(AUTHORIZE_FIELDS.map((k) => [k, field(k) || undefined]));
    if (!session) return authorize(c, q);
    const orgId = field('org_id');
    if (!session.orgs.some((o) => o.id === orgId)) throw new Forbidden('org: not one of your orgs');
    return authorize(c, q, field('decision'), orgId);
  });

  app.get('/settings/apps', async (c) => {
    const session = await signedIn(c);
    return session ? appsPage(c, session) : toSignIn(c);
  });
  app.post('/settings/apps/:id/revoke', async (c) => {
    const { field } = await form(c);
    const session = await signedIn(c, field);
    if (!session) return toSignIn(c);
    const id = c.req.param('id');
    if (!UUID_RE.test(id)) throw new NotFound('no such connected app in this org');
    await store.dashboard.revokeGrant(c.get('tokenHash'), id);
    return appsPage(c, session, { notice: 'Revoked: the app’s tokens are refused from its next request.' });
  });

  app.get('/usage', async (c) => {
    const session = await signedIn(c);
    if (!session?.org_id) return toSignIn(c);
    const usage = await store.dashboard.usage(c.get('tokenHash'), USAGE_DAYS);
    return c.html(<Usage nonce={c.get('nonce')} session={session} usage={usage} days={USAGE_DAYS} />);
  });

  app.onError((err, c) => {
    if (err instanceof Unauthorized) return toSignIn(c);
    return c.text(message(err), statusOf(err) as 403);
  });

  return app;
}
