/**
 * The `cairn` command beside a running server: export, offline verification and import between
 * installs, and `cairn serve` on a first start while the CLI talks to it through the local admin
 * channel. Apart from test/cli.test.ts so the two files run side by side.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../src/node/node';
import { BrowserLike } from './helpers/browser-like';
import { connect } from './helpers/clients';
import { cairnChildren } from './helpers/processes';

const BIN = join(import.meta.dirname, '..', 'bin', 'cairn.js');
const run = promisify(execFile);

describe('cairn CLI beside a running server', () => {
  let dataDir: string;
  const env = () => ({ ...process.env, CAIRN_DATA_DIR: dataDir, DATABASE_URL: '' });
  const cairn = async (...args: string[]) =>
    JSON.parse((await run(process.execPath, [BIN, ...args, '--json'], { env: env() })).stdout);

  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-cli-serve-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));

  it('exports an org through the running server, verifies the file offline, imports it into another install', async () => {
    const created = await cairn('org', 'create', 'Movers');
    const orgId = created.org.id;
    const server = await startServer({ CAIRN_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', DATABASE_URL: '' });
    const file = join(dataDir, 'movers.ndjson');
    let head = '';
    try {
      const s = await connect('v2', `${server.url}/mcp`, { key: created.key.secret, agent: 'ann' });
      await s.call('decide', { content: 'Movers pack the heavy boxes first', rationale: 'they go at the bottom' });
      await s.call('note', { content: 'private: the piano is out of tune' });
      await s.close();
      const out = await run(process.execPath, [BIN, 'export', '--org', orgId, '--out', file], { env: env() });
      expect(out.stderr).toMatch(
        /talking to the running server[\s\S]*Exported 1 entries, 0 plan versions, 0 artifacts, 0 projects, 3 ledger events to /,
      );
      head = /Ledger head: ([0-9a-f]{64}) \(seq 3\); cairn import --expect-head/.exec(out.stderr)?.[1] ?? '';
    } finally {
      await server.close();
    }
    const verified = await cairn('ledger', 'verify', '--file', file);
    expect(verified).toEqual({
      ok: true,
      events: 3,
      broken_at: null,
      sealed: 1,
      org: expect.objectContaining({ id: orgId }),
      head: { seq: 3, hash: head },
    });
    // the decision's content edited, its hash with it: the chain holds, the file does not
    const whole = readFileSync(file, 'utf8');
    const edited = join(dataDir, 'edited.ndjson');
    const content = 'Movers pack the light boxes first';
    writeFileSync(
      edited,
      whole
        .replace('Movers pack the heavy boxes first', content)
        .replace(
          /"content_sha256":"[0-9a-f]{64}"/,
          `"content_sha256":"${createHash('sha256').update(content).digest('hex')}"`,
        ),
    );
    const editedOut = await run(process.execPath, [BIN, 'ledger', 'verify', '--file', edited], { env: env() }).catch(
      (e: { code: number; stdout: string }) => e,
    );
    expect(editedOut).toMatchObject({ code: 1 });
    expect(editedOut.stdout).toMatch(
      /^Export BROKEN: entry [0-9a-f-]{36} \(line 2\): its content does not match the content hash of the last event that wrote it \(seq 2\)\. The chain.s 3 events hold/,
    );
    expect(editedOut.stdout).not.toMatch(/chain intact/);
    expect(readFileSync(file, 'utf8')).not.toContain('piano');

    const other = await mkdtemp(join(tmpdir(), 'cairn-cli-'));
    const there = async (...args: string[]) =>
      JSON.parse(
        (await run(process.execPath, [BIN, ...args, '--json'], { env: { ...env(), CAIRN_DATA_DIR: other } })).stdout,
      );
    try {
      // a head the export did not report is refused (and leaves nothing: the import below goes in)
      await expect(
        run(process.execPath, [BIN, 'import', file, '--org', orgId, '--expect-head', 'ab'.repeat(32)], {
          env: { ...env(), CAIRN_DATA_DIR: other },
        }),
      ).rejects.toMatchObject({ stderr: expect.stringMatching(/not at the head its export reported/) });
      const imported = await there('import', file, '--org', orgId, '--expect-head', head);
      expect(imported.imported).toMatchObject({ entry: 1, event: 3 });
      expect(await there('ledger', 'verify', '--org', orgId)).toEqual({
        ok: true,
        events: 3,
        broken_at: null,
        sealed: 1,
      });
      // a file changed by hand: offline verification names the event, the import refuses it
      const changed = readFileSync(file, 'utf8').replace('"op":"decide"', '"op":"remember"');
      writeFileSync(file, changed);
      // a broken chain exits 1, after saying where
      const broken = await run(process.execPath, [BIN, 'ledger', 'verify', '--file', file, '--json'], {
        env: env(),
      }).catch((e: { code: number; stdout: string }) => e);
      expect(broken).toMatchObject({ code: 1 });
      expect(JSON.parse(broken.stdout)).toMatchObject({ ok: false, broken_at: 2, events: 1 });
      await expect(
        run(process.execPath, [BIN, 'import', file, '--org', '01a20826-6952-7cdc-8ba5-b5d3783a2bd0'], {
          env: { ...env(), CAIRN_DATA_DIR: other },
        }),
      ).rejects.toMatchObject({ stderr: expect.stringMatching(/already used in this install|seq 2/) });
    } finally {
      await rm(other, { recursive: true, force: true });
    }
  }, 180_000);

  it('serve prints the endpoint and, on first start, a key that works; meanwhile the CLI talks to it', async () => {
    const fresh = await mkdtemp(join(tmpdir(), 'cairn-serve-'));
    const child: ChildProcess = spawn(process.execPath, [BIN, 'serve'], {
      env: { ...process.env, CAIRN_DATA_DIR: fresh, PORT: '0', DATABASE_URL: '', CAIRN_WORKERS: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      let out = '';
      const { url, key } = await new Promise<{ url: string; key: string }>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`serve printed:\n${out}`)), 30_000);
        child.stdout?.on('data', (d) => {
          out += String(d);
          const url = /serving MCP at (\S+)/.exec(out)?.[1];
          const key = /\b(svc_[0-9A-Za-z]{40})\b/.exec(out)?.[1];
          if (url && key) {
            clearTimeout(timer);
            resolve({ url, key });
          }
        });
        child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
      });
      expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
      // the embedded database is served by this one process (docs/design.md, "All cores")
      if (process.platform === 'linux') expect(cairnChildren(child.pid as number)).toEqual([]);
      const s = await connect('v2', url, { key, agent: 'first' });
      const o = await s.call('space');
      expect(o.structured.org).toMatchObject({ name: 'default' });
      await s.close();
      await operatorWhileServing(fresh, url.replace(/\/mcp$/, ''), child.pid as number);
    } finally {
      const exited = new Promise((r) => child.once('exit', (code, signal) => r({ code, signal })));
      child.kill('SIGTERM');
      expect(await exited).toEqual({ code: 0, signal: null }); // a graceful stop
      // the channel closed with the server: the CLI opens the database itself again
      expect(existsSync(join(fresh, 'admin.json'))).toBe(false);
      const direct = await run(process.execPath, [BIN, 'org', 'list', '--json'], {
        env: { ...process.env, CAIRN_DATA_DIR: fresh, DATABASE_URL: '' },
      });
      expect(direct.stderr).not.toMatch(/running server/);
      expect(JSON.parse(direct.stdout).orgs.map((o: { name: string }) => o.name)).toEqual(['default', 'Second']);
      await rm(fresh, { recursive: true, force: true });
    }
  }, 150_000);
});

/**
 * What an operator does from the command line while `cairn serve` holds the embedded database in
 * `dataDir`: every command goes to the server (and says so), with the effects a client sees.
 */
async function operatorWhileServing(dataDir: string, base: string, pid: number) {
  const env = { ...process.env, CAIRN_DATA_DIR: dataDir, DATABASE_URL: '', CAIRN_ADMIN_TOKEN: '' };
  const cairn = async (...args: string[]) => {
    const r = await run(process.execPath, [BIN, ...args, '--json'], { env });
    expect(r.stderr).toBe(`cairn: talking to the running server at ${base} (process ${pid})\n`);
    return JSON.parse(r.stdout);
  };
  // the channel: a token only the server's owner may read
  expect(statSync(join(dataDir, 'admin.json')).mode & 0o777).toBe(0o600);

  const { orgs } = await cairn('org', 'list');
  expect(orgs.map((o: { name: string }) => o.name)).toEqual(['default']);
  const orgId = orgs[0].id;
  const made = await cairn('key', 'create', '--org', orgId, '--name', 'laptop', '--agent', 'reviewer');
  expect(made.key).toMatchObject({ name: 'laptop', agent: 'reviewer', created_by: 'cli' });
  const agent = await connect('v2', `${base}/mcp`, { key: made.key.secret });
  const written = await agent.call('remember', { content: 'made with a key from the CLI' });
  expect(written.structured.entry).toMatchObject({ agent: 'reviewer' });
  await agent.close();
  const { keys } = await cairn('key', 'list', '--org', orgId);
  expect(keys.map((k: { name: string }) => k.name)).toEqual(['first key', 'laptop']);
  const revoked = await cairn('key', 'revoke', made.key.id);
  expect(revoked.key.revoked_at).toEqual(expect.any(String));
  const refused = await fetch(`${base}/mcp`, { headers: { 'X-Svc-Key': made.key.secret } });
  expect(refused.status).toBe(401); // revoked without a restart
  // the ledger names the CLI, and its chain holds: key made, memory, key revoked
  expect(await cairn('ledger', 'verify', '--org', orgId)).toEqual({ ok: true, events: 4, broken_at: null });

  const second = await cairn('org', 'create', 'Second');
  const writer = await connect('v2', `${base}/mcp`, { key: second.key.secret, agent: 'w' });
  expect((await writer.call('space')).structured.org).toMatchObject({ name: 'Second' });
  await writer.close();

  const user = await run(
    process.execPath,
    [BIN, 'user', 'create', '--org', orgId, '--email', 'op@example.com', '--json'],
    {
      env: { ...env, CAIRN_USER_PASSWORD: 'a long operator password' },
    },
  );
  expect(JSON.parse(user.stdout).user).toMatchObject({ email: 'op@example.com', org_id: orgId, created: true });
  const b = new BrowserLike(base);
  await b.get('/dashboard/signin');
  expect(
    (await b.post('/dashboard/signin', { email: 'op@example.com', password: 'a long operator password' })).status,
  ).toBe(303);
  expect((await b.get('/dashboard')).html).toContain('default (shown, owner)');

  // plans, an org's plan and usage, the sweep: the same answers as on the database itself
  expect((await cairn('plan', 'set', 'team', '--requests-per-minute', '120')).plan).toMatchObject({
    id: 'team',
    requests_per_minute: 120,
    tool_calls_per_month: null,
  });
  expect((await cairn('plan', 'list')).plans.map((p: { id: string }) => p.id)).toEqual(['team']);
  expect((await cairn('org', 'plan', '--org', orgId, 'team')).usage).toMatchObject({ plan: 'team' });
  expect((await cairn('org', 'usage', '--org', orgId, '--days', '7')).usage).toMatchObject({ plan: 'team' });
  expect(await cairn('sweep', '--org', orgId)).toEqual({
    orgs: [{ org_id: orgId, blobs: 0, deleted: [], kept_recent: 0, missing_bytes: [] }],
  });

  // an error comes back as the server said it, and the command fails
  await expect(run(process.execPath, [BIN, 'key', 'revoke', 'nope'], { env })).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringMatching(/id: must be a UUID/),
  });
  // migrate needs the database itself: it says which server holds it
  await expect(run(process.execPath, [BIN, 'migrate'], { env })).rejects.toMatchObject({
    code: 1,
    stderr: expect.stringContaining(`the server running at ${base} (process ${pid}) holds the embedded database`),
  });
  // the channel's token opens /admin to this machine only: for a request a proxy forwarded it is off
  const token = JSON.parse(readFileSync(join(dataDir, 'admin.json'), 'utf8')).token;
  const asked = (headers: Record<string, string>) =>
    fetch(`${base}/admin/orgs`, { headers: { authorization: `Bearer ${token}`, ...headers } });
  expect((await asked({})).status).toBe(200);
  expect((await asked({ 'X-Forwarded-For': '203.0.113.9' })).status).toBe(404);
  expect((await asked({ Forwarded: 'for=203.0.113.9' })).status).toBe(404);
  expect(
    (await fetch(`${base}/admin/orgs`, { headers: { authorization: 'Bearer not-the-token-at-all' } })).status,
  ).toBe(401);
}
