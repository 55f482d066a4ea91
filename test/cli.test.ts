/** The `cairn` command as an operator runs it: serve on the embedded default, orgs, keys, ledger. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/node/node';
import { readFunctionFiles, readMigrations } from '../src/storage/pg/migrate';
import { BrowserLike } from './helpers/browser-like';

const BIN = join(import.meta.dirname, '..', 'bin', 'cairn.js');
const run = promisify(execFile);

describe('cairn CLI on the embedded database', () => {
  let dataDir: string;
  const env = () => ({ ...process.env, CAIRN_DATA_DIR: dataDir, DATABASE_URL: '' });
  const cairn = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, [BIN, ...args, '--json'], { env: env() })).stdout);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('creates an org and keys, lists, revokes, verifies the ledger', async () => {
    const created = await cairn('org', 'create', 'Acme');
    expect(created.org.name).toBe('Acme');
    expect(created.key.secret).toMatch(/^svc_[0-9A-Za-z]{40}$/);
    const orgId = created.org.id;
    const k2 = await cairn('key', 'create', '--org', orgId, '--name', 'laptop');
    expect(k2.key).toMatchObject({ name: 'laptop', created_by: 'cli' });
    const list = await cairn('key', 'list', '--org', orgId);
    expect(list.keys.map((k: { name: string }) => k.name)).toEqual(['first key', 'laptop']);
    const revoked = await cairn('key', 'revoke', k2.key.id);
    expect(revoked.key.revoked_at).toBeTruthy();
    expect(await cairn('ledger', 'verify', '--org', orgId)).toEqual({ ok: true, events: 3, broken_at: null });
  }, 150_000);

  it('prints text by default, never JSON: keys (bound ones say so), orgs, revocations, the ledger', async () => {
    const text = async (...args: string[]) =>
      (await run(process.execPath, [BIN, ...args], { env: env() })).stdout.trim();
    const created = await cairn('org', 'create', 'Textual');
    const orgId = created.org.id;
    const bound = await text('key', 'create', '--org', orgId, '--name', 'reviewer', '--agent', 'reviewer');
    expect(bound).toMatch(/^Created key \S+, bound to agent reviewer: it acts as that agent only/);
    expect(await text('org', 'list')).toMatch(new RegExp(`^\\d+ orgs?:\\n[\\s\\S]*${orgId} {2}Textual`));
    const revoked = await text('key', 'revoke', created.key.id);
    expect(revoked).toMatch(/"first key" {2}by \S+ \S+, never used, revoked \d{4}-/);
    const keys = await text('key', 'list', '--org', orgId);
    expect(keys).toMatch(/^2 keys:\n/);
    expect(keys).toContain('"reviewer", bound to reviewer  by cli');
    expect(await text('ledger', 'verify', '--org', orgId)).toBe('Ledger verified: 3 events, chain intact.');
    for (const out of [bound, keys, revoked]) expect(out).not.toMatch(/^\s*[{[]/);
  }, 180_000);

  it('migrate says what it applied: everything on a new database, nothing the second time', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'cairn-cli-migrate-'));
    try {
      const migrate = async () =>
        JSON.parse(
          (await run(process.execPath, [BIN, 'migrate', '--json'], { env: { ...env(), CAIRN_DATA_DIR: fresh } }))
            .stdout,
        );
      const first = await migrate();
      expect(first.migrations).toEqual(readMigrations().map((m) => m.tag));
      expect(first.functions).toEqual(readFunctionFiles().map((f) => f.path));
      expect(await migrate()).toEqual({ ok: true, migrated: true, migrations: [], functions: [] });
    } finally {
      await rm(fresh, { recursive: true, force: true });
    }
  }, 150_000);

  it('creates a dashboard account owning an org, whose password signs in once shown', async () => {
    const created = await cairn('org', 'create', 'Labs');
    const user = await cairn('user', 'create', '--org', created.org.id, '--email', 'Grace@Example.com');
    expect(user.user).toMatchObject({ email: 'grace@example.com', org_id: created.org.id, created: true });
    expect(user.password).toMatch(/^[\w-]{16}$/);
    const again = await cairn('user', 'create', '--org', created.org.id, '--email', 'grace@example.com');
    expect(again).toEqual({ user: { ...user.user, created: false } }); // no new password
    await expect(
      run(process.execPath, [BIN, 'user', 'create', '--org', created.org.id, '--email', 'not-an-email'], {
        env: env(),
      }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/not an email address/) });

    const server = await startServer({
      CAIRN_DATA_DIR: dataDir,
      PORT: '0',
      HOST: '127.0.0.1',
      DATABASE_URL: '',
      CAIRN_SIGNUP: 'closed',
    });
    try {
      const b = new BrowserLike(server.url);
      // sign-up closed: accounts come from the operator only
      const closed = await b.get('/dashboard/signup');
      expect(closed.status).toBe(403);
      expect(closed.html).toContain('Sign-up is closed');
      const post = await b.post('/dashboard/signup', { email: 'eve@example.com', password: 'x'.repeat(16), org: 'E' });
      expect(post.status).toBe(403);
      expect(await server.store.dashboard.account('eve@example.com')).toBeNull();
      expect((await b.get('/dashboard/signin')).html).not.toContain('Create an account');
      await b.get('/dashboard/signin');
      const signedIn = await b.post('/dashboard/signin', { email: 'grace@example.com', password: user.password });
      expect(signedIn.location).toBe('/dashboard');
      expect((await b.get('/dashboard')).html).toContain('Labs (shown, owner)');
    } finally {
      await server.close();
    }
  }, 150_000);

  it('creates plans, puts an org on one, and shows its usage; a bad limit says which flag', async () => {
    const { org } = await cairn('org', 'create', 'Metered');
    const plan = await cairn('plan', 'set', 'team', '--requests-per-minute', '120', '--tool-calls-per-month', '50000');
    expect(plan.plan).toMatchObject({
      id: 'team',
      requests_per_minute: 120,
      tool_calls_per_month: 50000,
      stored_bytes: null,
      is_default: false,
    });
    await cairn('plan', 'set', 'free', '--tool-calls-per-month', '1000', '--stored-bytes', '1048576', '--default');
    const list = await cairn('plan', 'list');
    expect(list.plans.map((p: { id: string; is_default: boolean }) => [p.id, p.is_default])).toEqual([
      ['free', true],
      ['team', false],
    ]);
    // on the default plan until put on another, and back on it with --clear
    expect((await cairn('org', 'usage', '--org', org.id)).usage).toMatchObject({ plan: 'free', days: [] });
    expect((await cairn('org', 'plan', '--org', org.id, 'team')).usage).toMatchObject({
      plan: 'team',
      requests_per_minute: 120,
      tool_calls_this_month: 0,
    });
    expect((await cairn('org', 'plan', '--org', org.id, '--clear')).usage).toMatchObject({ plan: 'free' });
    await expect(
      run(process.execPath, [BIN, 'plan', 'set', 'big', '--entry-chars', '100000'], { env: env() }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/--entry-chars: .*16384/) });
    await expect(
      run(process.execPath, [BIN, 'plan', 'set', 'big', '--stored-bytes', 'lots'], { env: env() }),
    ).rejects.toMatchObject({ code: 1, stderr: expect.stringMatching(/--stored-bytes: .*number/) });
    await cairn('plan', 'set', 'free', '--tool-calls-per-month', '1000'); // no default again, for the tests below
  }, 150_000);

  it('explains a missing argument and exits non-zero', async () => {
    await expect(run(process.execPath, [BIN, 'key', 'list'], { env: env() })).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringMatching(/--org is required/),
    });
  });
});
