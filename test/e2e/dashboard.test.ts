/**
 * The dashboard over HTTP, as a browser drives it: accounts, sessions, CSRF, orgs and
 * Settings → API keys, on the Node server (both databases) and the Worker. The same flow in a real
 * browser is test/browser/dashboard.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { connect, entryId, headersFor, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const secretIn = (html: string) => /<code id="secret">(svc_[0-9A-Za-z]+)<\/code>/.exec(html)?.[1] ?? '';

describe.each(TARGETS)('dashboard on %s', (db) => {
  let t: TestServer;
  let n = 0;
  const email = () => `user${++n}-${db}@example.com`;

  beforeAll(async () => {
    // the sign-in limit is counted per address: each test below comes from its own
    t = await startTestServer(db, { CAIRN_AUTH_FAILURE_LIMIT: '3', CAIRN_CLIENT_ADDRESS_HEADER: 'X-Forwarded-For' });
  });
  afterAll(() => t?.close());

  async function signUp(b: BrowserLike, address = email(), org = 'Acme') {
    await b.get('/dashboard/signup');
    return b.post('/dashboard/signup', { email: address, password: 'correct horse battery', org });
  }

  it('signs up, makes a key that works over MCP, and revokes it: the next call gets 401', async () => {
    const b = new BrowserLike(t.url);
    const address = email();
    const created = await signUp(b, address);
    expect(created.status).toBe(303);
    expect(created.location).toBe('/dashboard/settings/keys');
    const cookie = created.headers.getSetCookie().find((c) => c.startsWith('cairn_session='));
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Lax/);

    const keys = await b.get('/dashboard/settings/keys');
    expect(keys.status).toBe(200);
    expect(keys.headers.get('content-security-policy')).toContain("default-src 'none'");
    const made = await b.post('/dashboard/settings/keys', { name: 'build agents' });
    const secret = secretIn(made.html);
    expect(secret).toMatch(/^svc_/);
    expect(made.html).toContain(`${t.url}/mcp`); // the client configuration, filled in

    const agent = await connect('v2', t.mcpUrl, { key: secret, agent: 'robot' });
    expect((await agent.call('remember', { content: 'written with a dashboard key' })).isError).toBe(false);
    const listed = (await b.get('/dashboard/settings/keys')).html;
    expect(listed).toContain('build agents');
    expect(listed).toContain(address); // created by
    expect(listed).not.toContain(secret); // shown once
    const id = /\/dashboard\/settings\/keys\/([0-9a-f-]{36})\/revoke/.exec(listed)?.[1] ?? '';

    const confirm = await b.get(`/dashboard/settings/keys/${id}/revoke`);
    expect(confirm.html).toContain('Revoke key “build agents”?');
    const call = () =>
      rawPost(t.mcpUrl, toolCall('recall', { query: 'dashboard' }), headersFor({ key: secret, agent: 'robot' }));
    expect((await call()).status).toBe(200);
    const revoked = await b.post(`/dashboard/settings/keys/${id}/revoke`, {});
    expect(revoked.html).toContain('is revoked');
    expect((await call()).status).toBe(401);
    expect((await b.get('/dashboard/settings/keys')).html).toMatch(/revoked \d{4}-\d\d-\d\d/);
    await agent.close().catch(() => {});

    // a key bound to an agent: no X-Svc-Agent in its configuration, that agent without one
    const bound = await b.post('/dashboard/settings/keys', { name: 'reviewer key', agent: 'reviewer' });
    expect(bound.html).toContain('This key is bound to agent <strong>reviewer</strong>');
    expect(bound.html).not.toContain('X-Svc-Agent&quot;');
    const boundSecret = secretIn(bound.html);
    const reviewer = await connect('v2', t.mcpUrl, { key: boundSecret });
    const wrote = await reviewer.call('remember', { content: 'reviewed by the bound key' });
    expect((wrote.structured.entry as { agent: string }).agent).toBe('reviewer');
    await reviewer.close();
    expect((await b.get('/dashboard/settings/keys')).html).toContain('bound to reviewer');
    const badAgent = await b.post('/dashboard/settings/keys', { name: 'bad', agent: 'a\u0001b' });
    expect(badAgent.status).toBe(422);
    expect(badAgent.html).toContain(
      'The agent to bind the key to must not contain control or invisible characters; found U+0001 (a control character) at character 2',
    );
  });

  it('answers an unknown dashboard page with a dashboard 404 page, signed in or not, under the same policy', async () => {
    const b = new BrowserLike(t.url);
    const out = await b.get('/dashboard/no-such-page/%3Cscript%3Ealert(1)%3C/script%3E');
    expect(out.status).toBe(404);
    expect(out.headers.get('content-type')).toContain('text/html');
    expect(out.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(out.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(out.html).toContain('<h1>Page not found</h1>');
    expect(out.html).toContain('href="/dashboard/signin"');
    expect(out.html).not.toContain('<script>alert');
    await signUp(b);
    const inside = await b.get('/dashboard/settings/no-such-page');
    expect(inside.status).toBe(404);
    expect(inside.html).toContain('There is no dashboard page at /dashboard/settings/no-such-page.');
    expect(inside.html).toContain('aria-label="Dashboard"'); // the navigation, signed in
    expect((await b.post('/dashboard/no-such-form', { name: 'x' })).status).toBe(404);
    // a page's own refusal is a dashboard page too, with its status
    const gone = await b.get('/dashboard/settings/keys/00000000-0000-7000-8000-000000000000/revoke');
    expect(gone.status).toBe(404);
    expect(gone.html).toContain('No such key in this org.');
    // outside the dashboard, clients still get JSON
    const api = await fetch(`${t.url}/no-such-endpoint`);
    expect(api.status).toBe(404);
    expect(api.headers.get('content-type')).toContain('application/json');
  });

  it('refuses a form without its token or from another site, and changes nothing', async () => {
    const b = new BrowserLike(t.url);
    await signUp(b);
    await b.get('/dashboard/settings/keys');
    expect((await b.post('/dashboard/settings/keys', { name: 'no token' }, { csrf: null })).status).toBe(403);
    expect((await b.post('/dashboard/settings/keys', { name: 'wrong token' }, { csrf: 'x' })).status).toBe(403);
    expect(
      (await b.post('/dashboard/settings/keys', { name: 'cross' }, { origin: 'https://evil.example' })).status,
    ).toBe(403);
    expect((await b.post('/dashboard/settings/keys', { name: 'cross' }, { origin: 'not a url' })).status).toBe(403);
    const page = (await b.get('/dashboard/settings/keys')).html;
    expect(page).not.toMatch(/no token|wrong token|cross/);
    // the sign-in form has its own token (double-submit cookie)
    const anonymous = new BrowserLike(t.url);
    expect((await anonymous.post('/dashboard/signin', { email: 'a@b.co', password: 'x' }, { csrf: null })).status).toBe(
      403,
    );
  });

  it('signs in and out; wrong passwords and unknown emails get the same answer', async () => {
    const b = new BrowserLike(t.url);
    const address = email();
    await signUp(b, address);
    await b.get('/dashboard');
    expect((await b.post('/dashboard/signout', {})).location).toBe('/dashboard/signin');
    expect((await b.get('/dashboard/settings/keys')).location).toBe('/dashboard/signin');

    const again = new BrowserLike(t.url);
    await again.get('/dashboard/signin');
    const wrong = await again.post('/dashboard/signin', { email: address, password: 'not the password' });
    const unknown = await again.post('/dashboard/signin', { email: `nobody-${address}`, password: 'whatever it is' });
    expect([wrong.status, unknown.status]).toEqual([401, 401]);
    expect(wrong.html).toContain('Wrong email or password.');
    expect(unknown.html).toContain('Wrong email or password.');
    const ok = await again.post('/dashboard/signin', {
      email: address.toUpperCase(),
      password: 'correct horse battery',
    });
    expect(ok.location).toBe('/dashboard');
    expect((await again.get('/dashboard/settings/keys')).status).toBe(200);
  });

  it('explains what to fix in a sign-up, and refuses a second account for one email', async () => {
    const b = new BrowserLike(t.url);
    await b.get('/dashboard/signup');
    const short = await b.post('/dashboard/signup', { email: email(), password: 'short', org: 'Acme' });
    expect(short.status).toBe(422);
    expect(short.html).toContain('12 to 1024 characters');
    const address = email();
    await signUp(b, address);
    const twice = await signUp(new BrowserLike(t.url), address);
    expect(twice.status).toBe(409);
    expect(twice.html).toContain('an account with this email exists');
  });

  it('keeps each user to their own orgs: switch between them, never into or across another', async () => {
    const alice = new BrowserLike(t.url);
    const aliceEmail = email();
    await signUp(alice, aliceEmail, 'Alpha');
    await alice.get('/dashboard');
    await alice.post('/dashboard/orgs', { name: 'Beta' });
    const orgs = (await alice.get('/dashboard')).html;
    expect(orgs).toContain('Beta (shown, owner)');
    // two orgs of one name would be told apart: each shows the end of its id (its random part) and its owner
    const alpha = /name="org_id" value="([0-9a-f-]{36})"/.exec(orgs)?.[1] ?? '';
    expect(orgs).toMatch(
      new RegExp(`Beta \\(shown, owner\\)</strong> <small>id …[0-9a-f]{8}, owner ${aliceEmail}</small>`),
    );
    expect(orgs).toContain(`id …${alpha.slice(-8)}`);

    const bob = new BrowserLike(t.url);
    await signUp(bob, email(), 'Bobs');
    await bob.get('/dashboard/settings/keys');
    const bobKey = await bob.post('/dashboard/settings/keys', { name: 'bob key' });
    expect(secretIn(bobKey.html)).toMatch(/^svc_/);
    const bobKeyId = /\/dashboard\/settings\/keys\/([0-9a-f-]{36})\/revoke/.exec(
      (await bob.get('/dashboard/settings/keys')).html,
    )?.[1];
    await bob.get('/dashboard');
    expect((await bob.post('/dashboard/orgs/switch', { org_id: alpha })).status).toBe(403);

    await alice.get('/dashboard');
    expect((await alice.post('/dashboard/orgs/switch', { org_id: alpha })).location).toBe('/dashboard');
    expect((await alice.get('/dashboard')).html).toContain('Alpha (shown, owner)');
    await alice.get('/dashboard/settings/keys');
    expect((await alice.post(`/dashboard/settings/keys/${bobKeyId}/revoke`, {})).status).toBe(404);
    expect((await bob.get('/dashboard/settings/keys')).html).toContain('active');
  });

  it('makes members by invitation the invitee accepts, says the same for unknown emails, and lets owners remove; an org keeps an owner', async () => {
    const owner = new BrowserLike(t.url);
    const ownerEmail = email();
    await signUp(owner, ownerEmail, 'Team Gamma');
    const mate = new BrowserLike(t.url);
    const mateEmail = email();
    await signUp(mate, mateEmail, 'Mates Own');

    await owner.get('/dashboard/settings/members');
    // an email no account has gets the same answer as one an account has: nothing tells them apart
    const linkIn = (html: string) => /(\/dashboard\/invitations\/[0-9a-f-]{36}\?code=[\w-]+)/.exec(html)?.[1] as string;
    const said = (html: string, who: string) =>
      /<[^>]*role="status"[^>]*>([^<]*)</
        .exec(html)?.[1]
        ?.replaceAll(who, 'EMAIL')
        .replace(/https?:\/\/\S+/, 'LINK')
        .replace(/\d{4}-\d\d-\d\d \d\d:\d\d/, 'WHEN');
    const unknown = await owner.post('/dashboard/settings/members', { email: `nobody-${mateEmail}` });
    const invited = await owner.post('/dashboard/settings/members', { email: mateEmail.toUpperCase() });
    expect([unknown.status, invited.status]).toEqual([200, 200]);
    expect(said(invited.html, mateEmail)).toMatch(
      /^EMAIL is invited until WHEN\. Give them this link \(shown once\): LINK/,
    );
    expect(said(unknown.html, `nobody-${mateEmail}`)).toBe(said(invited.html, mateEmail));
    expect(invited.html).toContain(`invited by ${ownerEmail}`);
    const link = linkIn(invited.html);
    const invitationId = /invitations\/([0-9a-f-]{36})/.exec(link)?.[1] as string;

    // not a member until they accept: the org is not theirs
    expect((await mate.get('/dashboard')).html).not.toContain('Team Gamma');
    // without the link's secret nobody may answer it, not even with the invited email (emails are not verified)
    await mate.get('/dashboard');
    expect((await mate.post(`/dashboard/invitations/${invitationId}/accept`, { code: 'guessed' })).status).toBe(404);
    // with the link but another email: told whom it is for, and refused
    const stranger = new BrowserLike(t.url);
    await signUp(stranger, email(), 'Strangers');
    const theirs = await stranger.get(link);
    expect(theirs.html).toContain(`This invitation is for ${mateEmail}`);
    expect(theirs.html).not.toContain('/accept');
    const code = new URL(link, t.url).searchParams.get('code') as string;
    expect((await stranger.post(`/dashboard/invitations/${invitationId}/accept`, { code })).status).toBe(404);
    // signed out, the link leads to sign-in and back
    expect((await new BrowserLike(t.url).get(link)).location).toBe(
      `/dashboard/signin?${new URLSearchParams({ next: link })}`,
    );
    // declined, it is gone; invited again (a new link: the old one no longer works), accepted, they are a member
    const page = await mate.get(link);
    expect(page.html).toContain('Join Team Gamma');
    expect((await mate.post(`/dashboard/invitations/${invitationId}/decline`, { code })).location).toBe('/dashboard');
    expect((await mate.get(link)).status).toBe(404);
    const again = linkIn((await owner.post('/dashboard/settings/members', { email: mateEmail })).html);
    const join = async (b: BrowserLike, l: string) => {
      await b.get(l);
      const u = new URL(l, t.url);
      return b.post(`${u.pathname}/accept`, { code: u.searchParams.get('code') as string });
    };
    expect((await join(mate, again)).location).toBe('/dashboard');
    const orgs = (await mate.get('/dashboard')).html;
    expect(orgs).toMatch(/Team Gamma \(shown, member\)/);
    expect((await owner.get('/dashboard/settings/members')).html).toMatch(
      new RegExp(`data-label="Email">${mateEmail}</td><td data-label="Role">member<`),
    );
    expect((await owner.post('/dashboard/settings/members', { email: mateEmail })).status).toBe(409);
    // an invitation taken back cannot be accepted
    const third = email();
    const pending = await owner.post('/dashboard/settings/members', { email: third });
    const thirdLink = linkIn(pending.html);
    const row = pending.html.slice(0, pending.html.indexOf(`aria-label="Take back the invitation of ${third}"`));
    const taken = [...row.matchAll(/invitations\/([0-9a-f-]{36})\/cancel"/g)].at(-1)?.[1];
    expect((await owner.post(`/dashboard/settings/members/invitations/${taken}/cancel`, {})).html).toContain(
      'The invitation was taken back.',
    );
    const late = new BrowserLike(t.url);
    await signUp(late, third, 'Late Own');
    expect((await late.get(thirdLink)).status).toBe(404);

    // the member (shown the org since accepting) sees its members and cannot manage them
    const seen = await mate.get('/dashboard/settings/members');
    expect(seen.html).toContain(ownerEmail);
    expect(seen.html).not.toContain('>Invite<');
    const refused = await mate.post('/dashboard/settings/members', { email: ownerEmail });
    expect(refused.status).toBe(403);
    expect(refused.html).toContain('only an owner of the org adds or removes members');

    // the last owner cannot leave; removing the member takes the org from them at once
    /** The user id in the remove link of one member's row (named "Leave this org" in one's own). */
    const removeId = (html: string, name: string) =>
      new RegExp(`members/([0-9a-f-]{36})/remove" aria-label="${name}"`).exec(html)?.[1];
    // a key the member made works until they are removed; the owner is shown it first
    const mateKey = secretIn((await mate.post('/dashboard/settings/keys', { name: 'mate laptop' })).html);
    const mateCall = () =>
      rawPost(t.mcpUrl, toolCall('recall', { query: 'anything' }), headersFor({ key: mateKey, agent: 'mate' }));
    expect((await mateCall()).status).toBe(200);
    const ownerId = removeId((await owner.get('/dashboard/settings/members')).html, 'Leave this org');
    const leave = await owner.post(`/dashboard/settings/members/${ownerId}/remove`, {});
    expect(leave.status).toBe(409);
    expect(leave.html).toContain('an org keeps at least one owner');
    const mateId = removeId(leave.html, `Remove ${mateEmail}`);
    expect(mateId).not.toBe(ownerId);
    const confirm = await owner.get(`/dashboard/settings/members/${mateId}/remove`);
    expect(confirm.html).toContain(`Remove ${mateEmail}?`);
    expect(confirm.html).toContain('These API keys they created are revoked with it');
    expect(confirm.html).toContain('mate laptop');
    const removed = await owner.post(`/dashboard/settings/members/${mateId}/remove`, {});
    expect(removed.html).toContain('The member was removed.');
    expect((await mateCall()).status).toBe(401);
    expect(removed.html).not.toContain(`>${mateEmail}<`); // (the unknown email's invitation names it inside another)
    expect((await mate.get('/dashboard')).html).toContain('Mates Own (shown, owner)');
    expect((await mate.get('/dashboard/settings/members')).html).not.toContain(ownerEmail);

    // anyone may leave: invited and joined again, the member leaves on their own
    await join(mate, linkIn((await owner.post('/dashboard/settings/members', { email: mateEmail })).html));
    const own = await mate.get('/dashboard/settings/members');
    const ownId = removeId(own.html, 'Leave this org');
    expect(own.html).toContain('Leave…');
    expect((await mate.get(`/dashboard/settings/members/${ownId}/remove`)).html).toContain('Leave this org?');
    expect((await mate.post(`/dashboard/settings/members/${ownId}/remove`, {})).location).toBe('/dashboard');
    expect((await owner.get('/dashboard/settings/members')).html).not.toContain(`>${mateEmail}<`);
  });

  it('shows what the agents wrote in Memory and the Ledger, attributed, without private notes', async () => {
    const b = new BrowserLike(t.url);
    await signUp(b);
    await b.get('/dashboard/settings/keys');
    const secret = secretIn((await b.post('/dashboard/settings/keys', { name: 'agents' })).html);
    const robot = await connect('v2', t.mcpUrl, { key: secret, agent: 'robot' });
    try {
      await robot.call('remember', { content: 'The build cache lives on disk two.' });
      await robot.call('decide', { content: 'Orders move to PostgreSQL 17.', rationale: 'logical replication' });
      await robot.call('note', { content: 'private scratch about lunch' });
    } finally {
      await robot.close();
    }
    const found = (await b.get('/dashboard/memory?q=where+is+the+build+cache')).html;
    expect(found).toContain('The build cache lives on disk two.');
    expect(found).toContain('by robot');
    // the same ranking as recall: an abbreviation finds its word, and the page shows the rationale
    const pg = (await b.get('/dashboard/memory?q=PG+decision')).html;
    expect(pg).toContain('Orders move to PostgreSQL 17.');
    expect(pg).toContain('Why: logical replication');
    const recent = (await b.get('/dashboard/memory')).html;
    expect(recent).toContain('The build cache lives on disk two.');
    expect(recent).not.toContain('private scratch');
    // as of a moment before anything was written: nothing yet; a bad moment says how to write it
    const before = (await b.get('/dashboard/memory?as_of=2020-01-01T00:00')).html;
    expect(before).toContain('As of 2020-01-01 00:00 UTC.');
    expect(before).not.toContain('The build cache lives on disk two.');
    const badMoment = await b.get('/dashboard/memory?as_of=yesterday');
    expect(badMoment.status).toBe(422);
    expect(badMoment.html).toContain('YYYY-MM-DDTHH:MM, UTC');

    // the owner's export: a file without the private note unless the box is ticked, which the ledger records
    expect((await b.get('/dashboard/usage')).html).toContain('Download the export');
    const shared = await b.post('/dashboard/usage/export', {});
    expect(shared.status).toBe(200);
    expect(shared.headers.get('content-disposition')).toMatch(
      /^attachment; filename="cairn-[0-9a-f-]+-\d{4}-\d{2}-\d{2}\.ndjson"$/,
    );
    expect(shared.html).toContain('Orders move to PostgreSQL 17.');
    expect(shared.html).not.toContain('private scratch');
    expect(shared.html).toContain('"sealed":true');
    const full = await b.post('/dashboard/usage/export', { private: 'on' });
    expect(full.html).toContain('private scratch about lunch');
    // the choice is the owner's, a member's action
    const exported = full.html
      .split('\n')
      .map((l) => (l ? (JSON.parse(l) as { type?: string; op?: string; agent?: string; actor_kind?: string }) : {}))
      .filter((e) => e.type === 'event' && e.op === 'export');
    expect(exported).toEqual([
      expect.objectContaining({ agent: expect.stringMatching(/@example\.com$/), actor_kind: 'member' }),
    ]);
    expect((await b.get('/dashboard/memory?kind=bogus')).status).toBe(422);
    expect((await b.get('/dashboard/memory?agent=someone-else')).html).toContain('Nothing found.');

    const ledger = (await b.get('/dashboard/ledger')).html;
    expect(ledger).toMatch(/Chain verified: all \d+ events are intact\./);
    expect(ledger).toMatch(/<strong>robot<\/strong> <span class="badge accent">remember<\/span>/);
    const keysOnly = (await b.get('/dashboard/ledger?op=key.create')).html;
    expect(keysOnly).toContain('key.create');
    expect(keysOnly).not.toContain('>remember<');

    // the three tool calls, today, with no plan limiting them
    const usage = (await b.get('/dashboard/usage')).html;
    expect(usage).toContain('This org has no plan: nothing is limited');
    expect(usage).toContain('3 (no limit)');
    const today = new Date().toISOString().slice(0, 10);
    expect(usage).toContain(`<td data-label="Day">${today}</td><td data-label="Tool calls">3</td>`);
  });

  it('filters Memory by path and marks what a newer entry on an overlapping path may have changed', async () => {
    const b = new BrowserLike(t.url);
    await signUp(b);
    await b.get('/dashboard/settings/keys');
    const secret = secretIn((await b.post('/dashboard/settings/keys', { name: 'coders' })).html);
    const project = 'https://github.com/acme/shop.git';
    const alice = await connect('v2', t.mcpUrl, { key: secret, agent: 'alice', project });
    const bob = await connect('v2', t.mcpUrl, { key: secret, agent: 'bob', project });
    const idOf = (r: { structured: Record<string, unknown> }) => (r.structured.entry as { id: string }).id;
    let old = '';
    let newer = '';
    try {
      old = idOf(
        await alice.call('remember', {
          content: 'Orders are priced in the service before they are saved.',
          paths: ['./src//orders/service.ts'],
          commit: 'ABCDEF1',
        }),
      );
      await alice.call('remember', { content: 'Invoices are rendered as PDF.', paths: ['src/invoices'] });
      await alice.call('remember', { content: 'Lunch is at noon.' });
      newer = idOf(
        await bob.call('remember', {
          content: 'Orders are now priced by the pricing worker.',
          paths: ['src/orders/'],
        }),
      );
    } finally {
      await alice.close();
      await bob.close();
    }
    const today = new Date().toISOString().slice(0, 10);

    // the file about to change: the entry on it and the one on its folder, fresh first; nothing else
    const about = await b.get('/dashboard/memory?path=src%2Forders%2Fservice.ts');
    expect(about.status).toBe(200);
    expect(about.html).toContain('value="src/orders/service.ts"');
    const hits = /<ol class="hits plain">[\s\S]*?<\/ol>/.exec(about.html)?.[0] ?? '';
    expect(hits.indexOf(`href="/dashboard/memory/${newer}"`)).toBeGreaterThan(-1);
    expect(hits.indexOf(`href="/dashboard/memory/${newer}"`)).toBeLessThan(
      hits.indexOf(`href="/dashboard/memory/${old}"`),
    );
    expect(hits).not.toContain('Invoices are rendered');
    expect(hits).not.toContain('Lunch is at noon');
    // the older entry's anchors, and its stale mark in words with the newer entry linked
    expect(hits).toContain(
      'Path: <a class="path" href="/dashboard/memory?path=src%2Forders%2Fservice.ts"><code>src/orders/service.ts</code></a>, commit <code>abcdef1</code>',
    );
    expect(hits).toMatch(
      new RegExp(
        `<p class="stale"><span class="badge warning">may be stale</span><span class="visually-hidden">:</span> ` +
          `<code>src/orders/service.ts</code> have a newer memory: <a href="/dashboard/memory/${newer}">Orders are now priced by the pricing worker.</a> — bob, ` +
          `<time datetime="${today}T[^"]+">${today}</time></p>`,
      ),
    );
    expect(hits.match(/may be stale/g)).toHaveLength(1); // the newer entry is fresh
    // several paths, separated by commas or spaces, made plain as the tools make them
    const both = (await b.get('/dashboard/memory?path=.%2Fsrc%2Finvoices%2F%2C+src%5Corders')).html;
    expect(both).toContain('Invoices are rendered as PDF.');
    expect(both).toContain('Orders are now priced by the pricing worker.');
    expect(both).not.toContain('Lunch is at noon');
    // with a query, the anchored entries ranked by it
    const asked = (await b.get('/dashboard/memory?q=invoices+pdf&path=src%2Finvoices%2Fpdf.ts')).html;
    expect(asked).toContain('Invoices are rendered as PDF.');
    expect(asked).not.toContain('Orders are');

    // the entry's page: the mark, its paths and its commit
    const page = (await b.get(`/dashboard/memory/${old}`)).html;
    expect(page).toContain('<p class="stale warn"><span class="badge warning">may be stale</span>');
    expect(page).toContain(
      `have a newer memory: <a href="/dashboard/memory/${newer}">Orders are now priced by the pricing worker.</a> — bob,`,
    );
    expect(page).toMatch(
      /<dt>Path<\/dt><dd><a class="path" href="\/dashboard\/memory\?path=src%2Forders%2Fservice.ts">/,
    );
    expect(page).toContain('<dt>Commit</dt><dd><code>abcdef1</code></dd>');
    expect((await b.get(`/dashboard/memory/${newer}`)).html).not.toContain('may be stale');

    // a path outside the repository: refused, saying why, the filter kept
    const refused: [string, string][] = [
      ['../etc/passwd', 'The path “../etc/passwd” must not contain . or .. parts'],
      ['src/ok.ts, /etc/passwd', 'The path “/etc/passwd” must be a path inside the repository'],
    ];
    for (const [given, why] of refused) {
      const bad = await b.get(`/dashboard/memory?path=${encodeURIComponent(given)}`);
      expect(bad.status).toBe(422);
      expect(bad.html).toContain(`<p class="error" role="alert">${why}`);
      expect(bad.html).not.toContain('<ol class="hits');
    }
    const many = await b.get(`/dashboard/memory?path=${Array.from({ length: 51 }, (_, i) => `f${i}`).join('+')}`);
    expect(many.status).toBe(422);
    expect(many.html).toContain('Give at most 50 paths (there are 51).');
  });

  it('shows usage against the plan: this month, per day, and the stored bytes', async () => {
    const b = new BrowserLike(t.url);
    await signUp(b, email(), 'Metered Ltd');
    const org = (await t.store.admin.listOrgs()).find((o) => o.name === 'Metered Ltd');
    await t.store.admin.putPlan({
      id: 'metered',
      requests_per_minute: 600,
      tool_calls_per_month: 1000,
      stored_bytes: 2048,
      artifact_bytes: null,
      entry_chars: 500,
      is_default: false,
    });
    await t.store.admin.setOrgPlan(org?.id as string, 'metered');
    await b.get('/dashboard/settings/keys');
    const secret = secretIn((await b.post('/dashboard/settings/keys', { name: 'meter' })).html);
    const robot = await connect('v2', t.mcpUrl, { key: secret, agent: 'robot' });
    try {
      for (let i = 0; i < 3; i++) await robot.call('remember', { content: `${i}${'y'.repeat(99)}` });
    } finally {
      await robot.close();
    }
    const usage = (await b.get('/dashboard/usage')).html;
    expect(usage).toContain('Plan: metered.');
    expect(usage).toMatch(/3 of 1,000 \(0 %\) <meter aria-label="Tool calls this month against the quota"/);
    expect(usage).toMatch(/300 bytes of 2\.0 KiB \(15 %\)/);
    expect(usage).toContain('<dd>600</dd>');
    expect(usage).toContain('<dd>500 characters</dd>');
    expect(usage).toContain('<td data-label="Month to date">3 of 1,000</td>');
  });

  it('limits failed sign-ins per address: then even the right password waits', async () => {
    const address = email();
    await signUp(new BrowserLike(t.url), address);
    const b = new BrowserLike(t.url, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' });
    await b.get('/dashboard/signin');
    const statuses = [];
    for (let i = 0; i < 4; i++) {
      statuses.push((await b.post('/dashboard/signin', { email: address, password: `wrong password ${i}` })).status);
    }
    expect(statuses).toEqual([401, 401, 401, 429]);
    const right = await b.post('/dashboard/signin', { email: address, password: 'correct horse battery' });
    expect(right.status).toBe(429);
    expect(right.html).toContain('Too many failed sign-ins from your network address; try again in 5 minute(s).');
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(200);
    // the proxy's last address is the client's: another one signs in at once
    const other = new BrowserLike(t.url, { 'X-Forwarded-For': '203.0.113.9, 198.51.100.2' });
    await other.get('/dashboard/signin');
    expect(
      (await other.post('/dashboard/signin', { email: address, password: 'correct horse battery' })).location,
    ).toBe('/dashboard');
  });

  it('shows an entry with its versions and events, and forgets it with a reason the ledger keeps', async () => {
    const b = new BrowserLike(t.url);
    const address = email();
    await signUp(b, address);
    await b.get('/dashboard/settings/keys');
    const secret = secretIn((await b.post('/dashboard/settings/keys', { name: 'agents' })).html);
    const robot = await connect('v2', t.mcpUrl, { key: secret, agent: 'robot' });
    let v1 = '';
    let v2 = '';
    let secretNote = '';
    let orgRule = '';
    let siteRule = '';
    try {
      v1 = ((await robot.call('remember', { content: 'Deploys run on Tuesdays.' })).structured.entry as { id: string })
        .id;
      v2 = (
        (await robot.call('remember', { content: 'Deploys run on Thursdays.', supersedes: v1 })).structured.entry as {
          id: string;
        }
      ).id;
      secretNote = ((await robot.call('note', { content: 'my own scratch' })).structured.entry as { id: string }).id;
      orgRule = entryId(await robot.call('remember', { content: 'CI runs on GitHub Actions.', scope: 'org' }));
      siteRule = entryId(
        await robot.call('remember', {
          content: 'The site runs CI on Buildkite.',
          project: '/srv/site',
          supersedes: orgRule,
        }),
      );
    } finally {
      await robot.close();
    }
    // an org entry a project replaced for itself only says so, and where it stays current
    const ruleHtml = (await b.get(`/dashboard/memory/${orgRule}`)).html;
    expect(ruleHtml).toContain(
      `<dt>Replaced</dt><dd>in project /srv/site by <a href="/dashboard/memory/${siteRule}">a project entry</a> (current everywhere else)</dd>`,
    );
    const page = await b.get(`/dashboard/memory/${v2}`);
    expect(page.status).toBe(200);
    expect(page.html).toContain('Deploys run on Thursdays.');
    expect(page.html).toContain(`href="/dashboard/memory/${v1}"`); // the older version
    expect(page.html).toMatch(/data-label="Agent">robot<\/td><td data-label="Operation">remember/);
    expect((await b.get(`/dashboard/memory/${secretNote}`)).status).toBe(404); // another agent's private note
    expect((await b.get('/dashboard/memory/not-an-id')).status).toBe(404);

    expect((await b.post(`/dashboard/memory/${v2}/forget`, { reason: '' })).status).toBe(422);
    const gone = await b.post(`/dashboard/memory/${v2}/forget`, { reason: 'wrong day' });
    expect(gone.location).toBe('/dashboard/memory?forgotten=1');
    expect((await b.get(`/dashboard/memory/${v2}`)).status).toBe(404);
    expect((await b.get('/dashboard/memory?q=deploys')).html).not.toContain('Thursdays');
    const ledger = (await b.get('/dashboard/ledger?op=forget')).html;
    expect(ledger).toContain(`<strong>${address}</strong>`);
    expect(ledger).toContain('wrong day');
    // the older version is current again
    expect((await b.get(`/dashboard/memory/${v1}`)).html).toContain('version 1 (this one)');
  });

  it("tells a member's actions from an agent's, even one that calls itself by the member's email", async () => {
    const b = new BrowserLike(t.url);
    const address = email();
    await signUp(b, address);
    await b.get('/dashboard/settings/keys');
    const secret = secretIn((await b.post('/dashboard/settings/keys', { name: 'mimic' })).html);
    // an agent may take any printable name, the member's email included
    const mimic = await connect('v2', t.mcpUrl, { key: secret, agent: address });
    try {
      const id = (
        (await mimic.call('remember', { content: 'Staging is rebuilt nightly.' })).structured.entry as { id: string }
      ).id;
      expect((await b.post(`/dashboard/memory/${id}/forget`, { reason: 'stale' })).location).toBe(
        '/dashboard/memory?forgotten=1',
      );
      type Event = { agent: string; op: string; actor_kind: string | null };
      const ledger = await mimic.call('space', { view: 'ledger' });
      const events = (ledger.structured.events as Event[]).map(({ agent, op, actor_kind }) => ({
        agent,
        op,
        actor_kind,
      }));
      expect(events).toEqual([
        { agent: address, op: 'forget', actor_kind: 'member' },
        { agent: address, op: 'remember', actor_kind: 'agent' },
        { agent: address, op: 'key.create', actor_kind: 'member' },
      ]);
      expect(ledger.text).toMatch(new RegExp(`^#3 \\S+ \\S+ ${address} \\(member\\) forget ${id}: stale$`, 'm'));
      expect(ledger.text).toMatch(new RegExp(`^#2 \\S+ \\S+ ${address} remember ${id}$`, 'm'));
      // the agent's own events only, by the agent filter and in the agents view
      const own = await mimic.call('space', { view: 'ledger', agent: address });
      expect((own.structured.events as Event[]).map((e) => e.op)).toEqual(['remember']);
      const agents = await mimic.call('space', { view: 'agents' });
      expect(agents.structured.agents).toEqual([expect.objectContaining({ agent: address, events: 1 })]);
    } finally {
      await mimic.close();
    }
    const page = (await b.get('/dashboard/ledger')).html;
    expect(page).toContain('Chain verified: all 3 events are intact.'); // the kinds are hashed
    expect(page.match(/title="a member of the org, acting in the dashboard">member</g)).toHaveLength(2);
    // activity per agent counts the agent's write only
    expect(page).toContain(`${address} 1`);
  });

  it('draws a plan as a board with its claims, activity per agent, what changed between versions, and the ledger as a timeline', async () => {
    const b = new BrowserLike(t.url);
    const address = email();
    await signUp(b, address);
    await b.get('/dashboard/settings/keys');
    const leadKey = secretIn((await b.post('/dashboard/settings/keys', { name: 'lead' })).html);
    const reviewerKey = secretIn((await b.post('/dashboard/settings/keys', { name: 'rev', agent: 'reviewer' })).html);
    const lead = await connect('v2', t.mcpUrl, { key: leadKey, agent: 'lead' });
    const reviewer = await connect('v2', t.mcpUrl, { key: reviewerKey });
    const idOf = (r: { structured: Record<string, unknown> }) => (r.structured.entry as { id: string }).id;
    let planId = '';
    let v2 = '';
    try {
      planId = idOf(
        await lead.call('plan', {
          title: 'ship the release',
          steps: [{ text: 'cut the branch', status: 'done' }, { text: 'run the migrations' }, { text: 'announce' }],
          scope: 'org',
        }),
      );
      expect((await reviewer.call('plan', { id: planId, claim_step: 1 })).isError).toBe(false);
      const v1 = idOf(await lead.call('remember', { content: 'Deploys run on Tuesdays.', scope: 'org' }));
      v2 = idOf(await lead.call('remember', { content: 'Deploys run early on Tuesdays.', supersedes: v1 }));
      await reviewer.call('remember', { content: 'The release notes live in the wiki.', scope: 'org' });
      await reviewer.call('note', { content: 'private: counted nowhere on the dashboard' });
    } finally {
      await lead.close();
      await reviewer.close();
    }

    // the plan: a board with the claimed step in "doing", its holder and until when; status, version, who changed it
    const board = (await b.get(`/dashboard/memory/${planId}`)).html;
    const column = (status: string) =>
      new RegExp(`<section class="column ${status}"[\\s\\S]*?</section>`).exec(board)?.[0] ?? '';
    expect(column('done')).toContain('cut the branch');
    expect(column('todo')).toContain('announce');
    expect(column('doing')).toMatch(
      /run the migrations<\/p><p class="claim">claimed by <strong>reviewer<\/strong> until <time datetime="[^"]+">\d{4}-\d\d-\d\d \d\d:\d\d UTC<\/time>/,
    );
    expect(column('skipped')).toContain('No step skipped.');
    // steps are numbered by the index the tools take (#0 first), as in every text
    expect(column('doing')).toContain('<span class="muted">#1</span> run the migrations');
    expect(board).toMatch(/<dt>Version<\/dt><dd>2<\/dd>/);
    expect(board).toMatch(/by reviewer \(step #1 claimed by reviewer\)/);
    // its versions, kept as it was updated in place, with what the claim changed
    expect(board).toMatch(/<li>version 1, [^<]+ by lead<\/li>/);
    expect(board).toMatch(/version 2 \(this one\)/);
    expect(board).toMatch(/<del><span class="visually-hidden">\[removed: <\/span>todo/);
    expect(board).toMatch(/<ins><span class="visually-hidden">\[inserted: <\/span>doing/);
    // plans are in Memory like other entries, and the kind filter offers them
    const plans = (await b.get('/dashboard/memory?kind=plan')).html;
    expect(plans).toContain(`href="/dashboard/memory/${planId}"`);
    expect(plans).not.toContain('Deploys run');

    // the newer version says what changed: the inserted word, marked and said
    const entry = (await b.get(`/dashboard/memory/${v2}`)).html;
    expect(entry).toContain('Version 1 → version 2');
    expect(entry).toContain('Deploys run <ins><span class="visually-hidden">[inserted: </span>early <span');
    expect(entry).not.toContain('<del><span');

    // activity per agent: today's counts for each, the private note left out, and the member's
    // two keys too (a member is not an agent)
    const ledger = (await b.get('/dashboard/ledger')).html;
    const today = new Date().toISOString().slice(0, 10);
    expect(ledger).toContain('aria-labelledby="activity-title"');
    expect(ledger).toContain(
      `<td data-label="Day">${today}</td><td data-label="lead">3</td><td data-label="reviewer">2</td>` +
        `<td data-label="All">5</td>`,
    );
    // the timeline: newest first, the bound key's agent verified, the entry linked
    const events = /<ol class="timeline plain"[\s\S]*?<\/ol>/.exec(ledger)?.[0] ?? '';
    expect(events.match(/<li class="event">/g)).toHaveLength(7);
    expect(events).toMatch(
      new RegExp(
        `<strong>reviewer</strong> <span class="badge ok"[^>]*>verified agent</span> <span class="badge accent">plan.update</span> <a href="/dashboard/memory/${planId}">`,
      ),
    );
    expect(events).toMatch(/<strong>lead<\/strong> <span class="badge accent">plan.create<\/span>/);
    expect(events.indexOf('plan.update')).toBeLessThan(events.indexOf('plan.create'));
  });

  it('lists the shared artifacts and downloads their bytes; private ones stay out', async () => {
    const b = new BrowserLike(t.url);
    await signUp(b);
    await b.get('/dashboard/settings/keys');
    const secret = secretIn((await b.post('/dashboard/settings/keys', { name: 'agents' })).html);
    const robot = await connect('v2', t.mcpUrl, { key: secret, agent: 'robot' });
    let shared = '';
    let mine = '';
    try {
      const put = async (name: string, scope: string) =>
        (
          (
            await robot.call('artifact_put', {
              name,
              content: `# ${name}\nhello`,
              content_type: 'text/markdown',
              scope,
            })
          ).structured.artifact as { id: string }
        ).id;
      shared = await put('runbook.md', 'org');
      mine = await put('scratch.md', 'agent');
    } finally {
      await robot.close();
    }
    const list = (await b.get('/dashboard/artifacts')).html;
    expect(list).toContain('runbook.md');
    expect(list).toContain('data-label="By">robot<');
    expect(list).not.toContain('scratch.md');
    const res = await fetch(`${t.url}/dashboard/artifacts/${shared}`, {
      headers: { cookie: [...b.cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="runbook.md"/);
    expect(await res.text()).toBe('# runbook.md\nhello');
    expect((await b.get(`/dashboard/artifacts/${mine}`)).status).toBe(404);
  });

  it.runIf(db === 'postgres')(
    'keeps accounts out of tool calls: the service role sees no user, membership or session',
    async () => {
      await signUp(new BrowserLike(t.url));
      const pg = t.pg as NonNullable<TestServer['pg']>;
      const stored = await pg.query<{ n: string }>('SELECT count(*) AS n FROM users');
      expect(Number(stored[0]?.n)).toBeGreaterThan(0);
      const seen = await pg.queryAs<{ u: string; m: string; s: string }>(
        'cairn_app',
        "SELECT set_config('cairn.org', (SELECT org_id::text FROM memberships LIMIT 1), false); " +
          'SELECT (SELECT count(*) FROM users) AS u, (SELECT count(*) FROM memberships) AS m, (SELECT count(*) FROM sessions) AS s',
      );
      expect(seen.at(-1)).toEqual({ u: '0', m: '0', s: '0' });
      const hashes = await pg.query<{ password_hash: string }>('SELECT password_hash FROM users LIMIT 1');
      expect(hashes[0]?.password_hash).toMatch(/^pbkdf2-sha256\$100000\$[\w-]{22}\$[\w-]{43}$/);
    },
  );
});
