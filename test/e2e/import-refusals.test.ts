/**
 * An import trusts no row (docs/design.md, "Export and import"): a file crafted from a real export
 * — an entry's content edited (its hash with it), an id changed, a kind, steps, tags, metadata or
 * content the tools would refuse, a line past the limit, a tail of events cut with the head moved
 * — is refused over /admin with a message naming the line or the entry, and leaves no org behind;
 * `?expect_head=` (the X-Cairn-Ledger-Head the export answered with) catches the cut tail, which
 * is otherwise a whole file. On the embedded database and on Postgres.
 */
import { createHash } from 'node:crypto';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/domain/ids';
import { verifyExport } from '../../src/operator/portable';
import { connect, entryId } from '../helpers/clients';
import { ADMIN_TOKEN, DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

type Line = Record<string, unknown>;
const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

/**
 * A POST on a connection of its own, closed after the answer: a server that refuses a body part
 * way may close the connection it came on (@hono/node-server drains a refused body for 500 ms at
 * most), which another request must not be sent on.
 */
function post(url: string, body: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', agent: false, headers: { ...auth, connection: 'close' } }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        text += c;
      });
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on('error', reject);
    req.end(body);
  });
}
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

async function* each(lines: string[]) {
  yield* lines;
}

/** The lines with the first row that `pick` chooses changed by `change`. */
function craft(lines: string[], pick: (o: Line) => boolean, change: (o: Line) => Line): string[] {
  const at = lines.findIndex((l) => pick(JSON.parse(l)));
  expect(at).toBeGreaterThan(0);
  return lines.map((l, i) => (i === at ? JSON.stringify(change(JSON.parse(l))) : l));
}

const isMemory = (o: Line) => o.type === 'entry' && o.kind === 'memory';
const isPlan = (o: Line) => o.type === 'entry' && o.kind === 'plan';

describe.each(DB_KINDS)('an import into %s checks every row before it keeps any', (db) => {
  let from: TestServer;
  let to: TestServer;
  let lines: string[];
  let head: string;
  let memoryId: string;

  const orgIds = async () =>
    ((await fetch(`${to.url}/admin/orgs`, { headers: auth }).then((r) => r.json())).orgs as { id: string }[])
      .map((o) => o.id)
      .sort();
  /** Imports into a new org id; the org list must be as it was unless the import succeeded. */
  async function refused(file: string[], query = '') {
    const before = await orgIds();
    const { status, text } = await post(`${to.url}/admin/orgs/${uuidv7()}/import${query}`, `${file.join('\n')}\n`);
    expect(status, text).toBe(400);
    expect(await orgIds()).toEqual(before);
    return JSON.parse(text).error.message as string;
  }

  beforeAll(async () => {
    // one after the other, as export-import.test.ts says why
    from = await startTestServer('pglite');
    to = await startTestServer(db);
    const org = await from.createOrg('crafted');
    const s = await connect('v2', from.mcpUrl, { key: org.key, agent: 'ann' });
    try {
      memoryId = entryId(await s.call('remember', { content: 'Crafted deploys go through the blue pipeline' }));
      const plan = entryId(await s.call('plan', { title: 'crafted plan', steps: [{ text: 'first step' }] }));
      await s.call('plan', { id: plan, claim_step: 0 });
      await s.call('decide', { content: 'Crafted uses Postgres', rationale: 'one store', tags: ['db'] });
      await s.call('artifact_put', { name: 'crafted.txt', content: 'hello' });
    } finally {
      await s.close();
    }
    await from.createKey(org.orgId, 'late'); // the last event: a key's, about no entry
    const res = await fetch(`${from.url}/admin/orgs/${org.orgId}/export`, { headers: auth });
    head = res.headers.get('x-cairn-ledger-head') ?? '';
    lines = (await res.text()).trimEnd().split('\n');
  });
  afterAll(async () => {
    await Promise.all([from?.close(), to?.close()]);
  });

  it('reports the ledger head with the export: the header, the end line and X-Cairn-Ledger-Head agree', async () => {
    expect(head).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.parse(lines.at(-1) as string).head.hash).toBe(head);
    expect(JSON.parse(lines[0] as string).head.hash).toBe(head);
    expect(await verifyExport(each(lines))).toMatchObject({ ok: true, head: { hash: head } });
  });

  it('refuses an entry whose content was edited (its hash too), naming it; verify --file calls the file broken', async () => {
    const edited = craft(lines, isMemory, (o) => {
      const content = 'Crafted deploys go through the RED pipeline';
      return { ...o, content, content_sha256: sha256(content) };
    });
    const verified = await verifyExport(each(edited));
    expect(verified).toMatchObject({ ok: false, broken_at: null, entry: { id: memoryId, problem: /content hash/ } });
    expect(await refused(edited)).toMatch(
      new RegExp(`line \\d+ \\(entry ${memoryId}\\): its content does not match the content hash of the last event`),
    );
  });

  it('refuses an entry whose id was changed without its events', async () => {
    const other = uuidv7();
    const moved = craft(lines, isMemory, (o) => ({ ...o, id: other }));
    expect(await verifyExport(each(moved))).toMatchObject({ ok: false, entry: { id: other } });
    expect(await refused(moved)).toMatch(new RegExp(`entry ${other}\\): no event of the ledger made it`));
  });

  it('refuses an entry whose author or kind was changed, naming the event that made it', async () => {
    const author = craft(lines, isMemory, (o) => ({ ...o, agent: 'mallory' }));
    expect(await refused(author)).toMatch(
      new RegExp(`entry ${memoryId}\\): its agent or project is not that of the event that made it \\(seq \\d+\\)`),
    );
    const kind = craft(lines, isMemory, (o) => ({ ...o, kind: 'observation' }));
    expect(await refused(kind)).toMatch(/its kind is observation but the event that made it \(seq \d+\) is remember/);
  });

  it('refuses an artifact whose id was changed, and a kept version of no plan', async () => {
    const other = uuidv7();
    const artifact = craft(
      lines,
      (o) => o.type === 'artifact',
      (o) => ({ ...o, id: other }),
    );
    expect(await refused(artifact)).toMatch(new RegExp(`\\(artifact ${other}\\): no event of the ledger made it`));
    const version = craft(
      lines,
      (o) => o.type === 'version',
      (o) => ({ ...o, entry_id: other }),
    );
    expect(await refused(version)).toMatch(
      new RegExp(`line \\d+ \\(version\\): entry_id: ${other} is no plan of the file`),
    );
  });

  it.each([
    ['a bogus kind', isMemory, (o: Line) => ({ ...o, kind: 'bogus' }), /line \d+ \(entry [0-9a-f-]+\): kind: /],
    [
      'bad plan steps',
      isPlan,
      (o: Line) => ({ ...o, steps: [5, null, 'x'] }),
      /line \d+ \(entry [0-9a-f-]+\): steps\.0: /,
    ],
    [
      '5,000 tags',
      isMemory,
      (o: Line) => ({ ...o, tags: Array.from({ length: 5000 }, (_, i) => `t${i}`) }),
      /line \d+ \(entry [0-9a-f-]+\): tags: at most 32 tags/,
    ],
    ['metadata that is no object', isMemory, (o: Line) => ({ ...o, metadata: [1, 2] }), /\): metadata: /],
    ['metadata that is a string', isMemory, (o: Line) => ({ ...o, metadata: 'x' }), /\): metadata: /],
    [
      'content with a NUL',
      isMemory,
      (o: Line) => ({ ...o, content: 'a\u0000b', content_sha256: sha256('a\u0000b') }),
      /line \d+ \(entry [0-9a-f-]+\): holds a NUL character/,
    ],
  ])('refuses a row with %s, naming its line and entry, and leaves no org', async (_what, pick, change, message) => {
    expect(await refused(craft(lines, pick, change))).toMatch(message);
  });

  it('catches a cut tail with the head the export reported, and imports the whole file against it', async () => {
    // the last event (the late key's) cut, the header's and end line's head moved back: a whole file
    const events = lines.filter((l) => JSON.parse(l).type === 'event');
    const last = JSON.parse(events.at(-1) as string);
    const end = JSON.parse(lines.at(-1) as string);
    const moved = { seq: last.seq - 1, hash: last.prev_hash };
    const cut = [
      JSON.stringify({ ...JSON.parse(lines[0] as string), head: moved }),
      ...lines.slice(1, -2),
      JSON.stringify({ ...end, counts: { ...end.counts, event: end.counts.event - 1 }, head: moved }),
    ];
    expect(lines.at(-2)).toBe(events.at(-1));
    expect(await verifyExport(each(cut))).toMatchObject({ ok: true });
    expect(await refused(cut, `?expect_head=${head}`)).toMatch(/not at the head its export reported/);
    expect(await refused(lines, '?expect_head=nothex')).toMatch(/64 hex characters/);

    const target = uuidv7();
    const ok = await fetch(`${to.url}/admin/orgs/${target}/import?expect_head=${head}`, {
      method: 'POST',
      headers: auth,
      body: `${lines.join('\n')}\n`,
    });
    expect(ok.status).toBe(201);
    expect(await orgIds()).toContain(target);
  });

  it('undoes an import that was cut off (import --abort), the org it made included', async () => {
    const before = await orgIds();
    const target = uuidv7();
    await to.store.admin.importBegin(target, 'cut off', target); // as a process killed part way leaves it
    expect(await orgIds()).toContain(target);
    const res = await fetch(`${to.url}/admin/orgs/${target}/import?abort=true`, { method: 'POST', headers: auth });
    expect(res.status).toBe(200);
    expect(await orgIds()).toEqual(before);
  });

  it('refuses a line over the limit by its number, without reading it whole', async () => {
    const long = craft(lines, isMemory, (o) => ({ ...o, content: 'x'.repeat(9 << 20) }));
    const at = long.findIndex((l) => l.length > 1 << 20) + 1;
    expect(await refused(long)).toMatch(new RegExp(`line ${at} is longer than 8388608 bytes`));
  });
});
