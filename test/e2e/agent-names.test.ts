/**
 * Agent names as real MCP clients send them over real HTTP, on PGlite, Postgres and the Worker:
 * X-Svc-Agent is read as UTF-8 and NFC-normalised, so `é` composed and decomposed are one agent;
 * control and invisible format characters are refused with 400 naming the character; a name that
 * mixes scripts is accepted and marked in the tools' texts and on the dashboard.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { connect, type McpSession, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

/** A header value carrying `name` as UTF-8 bytes, as clients send a name outside ASCII. */
const utf8 = (name: string) => Buffer.from(name, 'utf8').toString('latin1');
const secretIn = (html: string) => /<code id="secret">(svc_[0-9A-Za-z]+)<\/code>/.exec(html)?.[1] ?? '';
/** `аgent-b` with a Cyrillic а (U+0430): reads as the Latin `agent-b`. */
const LOOKALIKE = '\u0430gent-b';
const REDIRECT = 'http://127.0.0.1:9/callback';

describe.each(TARGETS)('agent names on %s', (db) => {
  let t: TestServer;
  let key: string;
  let b: BrowserLike;
  const open: McpSession[] = [];
  const as = async (agent: string) => {
    const s = await connect('v2', t.mcpUrl, { key, agent: utf8(agent) });
    open.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestServer(db);
    // a dashboard member's org and key, so the dashboard shows what the agents write
    b = new BrowserLike(t.url);
    await b.get('/dashboard/signup');
    await b.post('/dashboard/signup', {
      email: `names-${db}@example.com`,
      password: 'correct horse battery',
      org: 'N',
    });
    await b.get('/dashboard/settings/keys');
    key = secretIn((await b.post('/dashboard/settings/keys', { name: 'agents' })).html);
  });
  afterAll(async () => {
    for (const s of open) await s.close().catch(() => {});
    await t?.close();
  });

  it('refuses a soft hyphen, a zero width space and a right-to-left override with 400 naming each', async () => {
    const soft = 'U+00AD (soft hyphen, an invisible format character) at character 4';
    const cases: [string, string][] = [
      // one byte 0xAD, as the red team sent it: Latin-1 on Node, not UTF-8 to workerd
      [
        'rev\u00adiewer',
        db === 'workers' ? 'U+FFFD (the replacement character: the name was not sent as UTF-8)' : soft,
      ],
      [utf8('rev\u00adiewer'), soft],
      [utf8('rev\u200biewer'), 'U+200B (zero width space, an invisible format character) at character 4'],
      [utf8('\u202ereviewer'), 'U+202E (right-to-left override, an invisible format character) at character 1'],
      [utf8('reviewer\ufeff'), 'U+FEFF (zero width no-break space (byte order mark), an invisible format character)'],
    ];
    for (const [sent, says] of cases) {
      const res = await rawPost(t.mcpUrl, toolCall('remember', { content: 'x' }), {
        'X-Svc-Key': key,
        'X-Svc-Agent': sent,
      });
      expect(res.status, says).toBe(400);
      const body = (await res.json()) as { jsonrpc: string; error: { code: number; message: string } };
      expect(body.error.message).toContain('X-Svc-Agent: must not contain control or invisible characters; found');
      expect(body.error.message).toContain(says);
      expect(body.error.message).toContain('remove it');
    }
    // nothing was written by any of them
    const ledger = await (await as('auditor')).call('space', { view: 'agents' });
    expect(ledger.text).not.toContain('reviewer');
  });

  it('names one agent by é composed and decomposed: writes by both are that agent’s', async () => {
    const composed = await as('jos\u00e9');
    const decomposed = await as('jose\u0301');
    const first = await composed.call('note', { content: 'private plan: the parser rewrite' });
    const second = await decomposed.call('note', { content: 'private plan: the lexer rewrite' });
    expect((first.structured.entry as { agent: string }).agent).toBe('jos\u00e9');
    expect((second.structured.entry as { agent: string }).agent).toBe('jos\u00e9');
    // each reads the other's private note: one agent
    const mine = await composed.call('recall', { query: 'rewrite', scope: 'agent' });
    expect(mine.text).toContain('lexer rewrite');
    expect(mine.text).toContain('parser rewrite');
    // so does an author filter naming it either way
    const filtered = await composed.call('recall', { query: 'rewrite', agent: 'jose\u0301', scope: 'agent' });
    expect((filtered.structured.hits as unknown[]).length).toBe(2);
    const events = await composed.call('space', { view: 'ledger', agent: 'jose\u0301' });
    expect((events.structured.events as unknown[]).length).toBe(2);
    const agents = await composed.call('space', { view: 'agents' });
    const names = (agents.structured.agents as { agent: string }[]).map((a) => a.agent);
    expect(names.filter((n) => n.normalize('NFD') === 'jose\u0301')).toEqual(['jos\u00e9']);
  });

  it('marks a name that mixes scripts in the tools’ texts and on the dashboard', async () => {
    const lookalike = await as(LOOKALIKE);
    const wrote = await lookalike.call('remember', { content: 'deploys go through the blue pipeline' });
    expect((wrote.structured.entry as { agent: string }).agent).toBe(LOOKALIKE);
    const id = (wrote.structured.entry as { id: string }).id;
    const mark = `${LOOKALIKE} (mixed scripts: Cyrillic+Latin)`;
    const reader = await as('agent-b');
    expect((await lookalike.call('space', {})).text).toContain(
      `You are agent "${LOOKALIKE}" (mixed scripts: Cyrillic+Latin).`,
    );
    expect((await reader.call('space', { view: 'agents' })).text).toContain(`- ${mark}:`);
    expect((await reader.call('space', { view: 'ledger' })).text).toContain(`${mark} remember ${id}`);
    expect((await reader.call('space', { view: 'history', entry_id: id })).text).toContain(`(${mark}, `);
    expect((await reader.call('recall', { query: 'blue pipeline' })).text).toContain(`(${mark}, `);
    // the plain agent-b is not marked
    await reader.call('remember', { content: 'the green pipeline is for hotfixes' });
    const agents = (await reader.call('space', { view: 'agents' })).text;
    expect(agents).toMatch(/^- agent-b: /m);

    const ledger = (await b.get('/dashboard/ledger')).html;
    expect(ledger).toContain(
      `<strong>${LOOKALIKE}</strong> <span class="badge warning" title="This name mixes Cyrillic and Latin letters`,
    );
    expect(ledger).toMatch(/<strong>agent-b<\/strong> <span class="badge accent">/);
    const entry = (await b.get(`/dashboard/memory/${id}`)).html;
    expect(entry).toContain('mixed scripts</span>');
  });
  it('refuses a hidden character in the agent an OAuth app is bound to at consent, naming it', async () => {
    const registered = await fetch(`${t.url}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'App', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
    const q = {
      response_type: 'code',
      client_id: ((await registered.json()) as { client_id: string }).client_id,
      redirect_uri: REDIRECT,
      code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
      code_challenge_method: 'S256',
    };
    const page = await b.get(`/dashboard/authorize?${new URLSearchParams(q)}`);
    const org = /<option value="([0-9a-f-]{36})" selected/.exec(page.html)?.[1] as string;
    const bound = await b.post('/dashboard/authorize', {
      ...q,
      org_id: org,
      decision: 'allow',
      agent: 'rev\u200biewer',
    });
    expect(bound.status).toBe(422);
    expect(bound.location).toBeNull();
    expect(bound.html).toContain('found U+200B (zero width space, an invisible format character) at character 4');
  });
});
