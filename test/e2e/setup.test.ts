/**
 * The first start's setup link (docs/design.md, "First start"), as a newcomer meets it: `cairn
 * serve` prints the key of org `default` and a one-time link; the person who follows it makes the
 * account that owns `default` and sees what agents wrote with the printed key — no CLI step, no
 * restart. On the embedded database and on Postgres with two worker processes (the link works on
 * whichever serves the request).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { connect } from '../helpers/clients';
import { createTestDatabase, type TestDatabase } from '../helpers/postgres';
import { type Serving, serve, stop } from '../helpers/serve-cli';

const PASSWORD = 'correct horse battery';

/** Writes a memory with the printed key, as an agent would. */
async function agentWrites(s: Serving, content: string): Promise<void> {
  const agent = await connect('v2', `${s.url}/mcp`, { key: s.key as string, agent: 'builder' });
  expect((await agent.call('remember', { content, scope: 'org' })).isError).toBe(false);
  await agent.close();
}

const pathOf = (link: string) => link.slice(link.indexOf('/dashboard/'));

describe('setup link on the embedded database', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-setup-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('lets the first account own org default and see what the printed key wrote; then opens nothing', async () => {
    // sign-up closed: the link is the operator's own invitation, and works all the same
    const env = { CAIRN_DATA_DIR: dataDir, DATABASE_URL: '', CAIRN_SIGNUP: 'closed' };
    const first = await serve(env, { key: true, link: true });
    let stale: string;
    try {
      expect(first.output).toMatch(/Nobody owns org "default" yet/);
      await agentWrites(first, 'the deploy script needs NODE_ENV=production');
      stale = first.link as string;
    } finally {
      await stop(first);
    }

    // a restart prints a new link (no new key), and the old one opens nothing
    const s = await serve(env, { key: false, link: true });
    try {
      expect(s.key).toBeUndefined();
      expect(s.link).not.toBe(stale);
      const b = new BrowserLike(s.url);
      const old = await b.get(pathOf(stale));
      expect(old.status).toBe(410);
      expect(old.html).toContain('opens nothing any more');
      expect((await b.get('/dashboard/setup?token=not-the-token')).status).toBe(410);
      expect((await b.get('/dashboard/setup')).status).toBe(410);

      const form = await b.get(pathOf(s.link as string));
      expect(form.status).toBe(200);
      expect(form.html).toContain('Set up Cairn');
      // a forged form (no token of this browser's) is refused before anything is made
      const forged = await new BrowserLike(s.url).post(
        '/dashboard/setup',
        {
          token: new URL(s.link as string).searchParams.get('token') as string,
          email: 'eve@example.com',
          password: PASSWORD,
        },
        { csrf: null },
      );
      expect(forged.status).toBe(403);
      const short = await b.post('/dashboard/setup', {
        token: new URL(s.link as string).searchParams.get('token') as string,
        email: 'ada@example.com',
        password: 'short',
      });
      expect(short.status).toBe(422);

      const made = await b.post('/dashboard/setup', {
        token: new URL(s.link as string).searchParams.get('token') as string,
        email: 'Ada@Example.com',
        password: PASSWORD,
      });
      expect(made.status).toBe(303);
      expect(made.location).toBe('/dashboard/memory');
      const memory = await b.get('/dashboard/memory');
      expect(memory.status).toBe(200);
      expect(memory.html).toContain('the deploy script needs NODE_ENV=production');
      expect((await b.get('/dashboard')).html).toContain('default (shown, owner)');
      // the printed key is among the org's keys on the dashboard
      expect((await b.get('/dashboard/settings/keys')).html).toContain((first.key as string).slice(0, 8));

      // used: it opens nothing, for a second person or the same one
      const again = new BrowserLike(s.url);
      expect((await again.get(pathOf(s.link as string))).status).toBe(410);
      await again.get('/dashboard/signin'); // a form token of its own
      const second = await again.post('/dashboard/setup', {
        token: new URL(s.link as string).searchParams.get('token') as string,
        email: 'mallory@example.com',
        password: PASSWORD,
      });
      expect(second.status).toBe(410);
      const signIn = new BrowserLike(s.url);
      await signIn.get('/dashboard/signin');
      const signedIn = await signIn.post('/dashboard/signin', { email: 'mallory@example.com', password: PASSWORD });
      expect(signedIn.status).toBe(401); // no account was made
    } finally {
      await stop(s);
    }

    // owned: the next start prints no link
    const later = await serve(env, { key: false, link: false });
    try {
      expect(later.output).not.toContain('/dashboard/setup');
      const b = new BrowserLike(later.url);
      await b.get('/dashboard/signin');
      expect((await b.post('/dashboard/signin', { email: 'ada@example.com', password: PASSWORD })).status).toBe(303);
      expect((await b.get('/dashboard/memory')).html).toContain('the deploy script needs NODE_ENV=production');
    } finally {
      await stop(later);
    }
  }, 120_000);
});

describe('setup link on Postgres with two worker processes', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(() => db?.drop());

  it('makes an account signed up before the owner, with its own password, on whichever worker serves', async () => {
    const s = await serve({ DATABASE_URL: db.url, CAIRN_WORKERS: '2' }, { key: true, link: true });
    try {
      await agentWrites(s, 'staging runs on the blue cluster');
      const b = new BrowserLike(s.url);
      // the newcomer signed up first, and landed in an empty org of their own
      await b.get('/dashboard/signup');
      expect(
        (await b.post('/dashboard/signup', { email: 'grace@example.com', password: PASSWORD, org: 'Mine' })).status,
      ).toBe(303);
      expect((await b.get('/dashboard/memory')).html).not.toContain('staging runs on the blue cluster');

      const token = new URL(s.link as string).searchParams.get('token') as string;
      // each request on a new connection: the two workers share the port, and either may answer
      for (let i = 0; i < 4; i++) expect((await new BrowserLike(s.url).get(pathOf(s.link as string))).status).toBe(200);
      const anon = new BrowserLike(s.url);
      await anon.get(pathOf(s.link as string));
      const wrong = await anon.post('/dashboard/setup', {
        token,
        email: 'grace@example.com',
        password: 'not her password',
      });
      expect(wrong.status).toBe(401);
      expect(wrong.html).toContain('enter its password');
      const owned = await anon.post('/dashboard/setup', { token, email: 'grace@example.com', password: PASSWORD });
      expect(owned.status).toBe(303);
      expect((await anon.get('/dashboard/memory')).html).toContain('staging runs on the blue cluster');
      const orgs = (await anon.get('/dashboard')).html;
      expect(orgs).toContain('default (shown, owner)');
      expect(orgs).toContain('Mine');
      // whichever worker is asked now, the link opens nothing
      for (let i = 0; i < 4; i++) expect((await new BrowserLike(s.url).get(pathOf(s.link as string))).status).toBe(410);
      const rows = await db.query<{ email: string; role: string; name: string }>(
        'SELECT u.email, m.role, o.name FROM memberships m JOIN users u ON u.id = m.user_id JOIN orgs o ON o.id = m.org_id',
      );
      expect(rows.sort((x, y) => x.name.localeCompare(y.name))).toEqual([
        { email: 'grace@example.com', role: 'owner', name: 'default' },
        { email: 'grace@example.com', role: 'owner', name: 'Mine' },
      ]);
    } finally {
      await stop(s);
    }
  }, 120_000);
});
