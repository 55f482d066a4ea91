/**
 * An entry's handle (the last 8 hex digits of its id), as the brief shows it, names the entry to
 * the tools: supersedes, plan id, space history and ledger entry_id, forget. It names only an
 * entry the caller may read: another agent's private entry is "not found" by its handle, as by its
 * id, and never makes a handle ambiguous; a handle two readable entries share is refused with both
 * ids.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashKey } from '../../src/auth/keys';
import { uuidv7 } from '../../src/domain/ids';
import { connect, entryId, type McpSession } from '../helpers/clients';
import type { TestDatabase } from '../helpers/postgres';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const PROJECT = '/srv/shop';

interface Event {
  op: string;
  entry_id: string;
}

describe.each(TARGETS)('entry handles on %s', (db) => {
  let t: TestServer;
  let key: string;
  let alice: McpSession;
  let bob: McpSession;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
    alice = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: PROJECT });
    bob = await connect('v2-modern', t.mcpUrl, { key, agent: 'bob', project: PROJECT });
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await t?.close();
  });

  const brief = async (s: McpSession) => {
    const r = await s.call('space', { view: 'brief' });
    expect(r.isError, r.text).toBe(false);
    return r.text;
  };
  /** The handle the brief shows on the line that says `says`. */
  const handleIn = (text: string, says: string) => {
    const line = text.split('\n').find((l) => l.includes(says));
    const m = /\((?:[^()]*, )?(?:plan )?id ([0-9a-f]{8})\)/.exec(line ?? '');
    expect(m, `a handle on the line of "${says}" in:\n${text}`).not.toBeNull();
    return m?.[1] as string;
  };

  it('supersedes a decision by the handle the brief shows, which then leaves the brief', async () => {
    const old = entryId(
      await alice.call('decide', { content: 'Use Prisma for database access', rationale: 'fast start' }),
    );
    const handle = handleIn(await brief(bob), 'Use Prisma for database access');
    expect(handle).toBe(old.slice(-8));
    const r = await bob.call('decide', {
      content: 'Use Kysely for database access',
      rationale: 'slot reservation needs row locks',
      supersedes: handle.toUpperCase(), // any case
    });
    expect(r.isError, r.text).toBe(false);
    expect((r.structured.entry as { supersedes: string }).supersedes).toBe(old);
    const after = await brief(bob);
    expect(after).not.toContain('Prisma');
    expect(after).toContain('Use Kysely for database access');
    // the history and the ledger of the old decision, by its handle
    const story = await alice.call('space', { view: 'history', entry_id: handle });
    expect(story.isError, story.text).toBe(false);
    const h = story.structured.history as { entry: { id: string }; chain: { id: string }[] };
    expect(h.entry.id).toBe(old);
    expect(h.chain.map((c) => c.id)).toEqual([old, entryId(r)]);
    const ledger = await alice.call('space', { view: 'ledger', entry_id: handle });
    expect(ledger.isError, ledger.text).toBe(false);
    expect((ledger.structured.events as Event[]).map((e) => [e.op, e.entry_id])).toEqual([['decide', old]]);
  });

  it('updates a plan and forgets an entry by handle', async () => {
    const plan = entryId(
      await alice.call('plan', {
        title: 'Ship the cart',
        steps: [
          { text: 'Build it', status: 'doing' },
          { text: 'Test it', status: 'todo' },
        ],
      }),
    );
    const rule = entryId(await alice.call('remember', { content: 'Never keep card numbers in the cart' }));
    const text = await brief(bob);
    const updated = await bob.call('plan', { id: handleIn(text, 'Ship the cart'), claim_step: 1 });
    expect(updated.isError, updated.text).toBe(false);
    expect(entryId(updated)).toBe(plan);
    const gone = await bob.call('forget', { id: handleIn(text, 'card numbers'), reason: 'moved to the wiki' });
    expect(gone.structured).toEqual({ forgotten: [rule], not_found: [], forgotten_before: [] });
    expect(await brief(bob)).not.toContain('card numbers');
    // a handle that names no entry any more is not found, as given
    const again = await bob.call('forget', { ids: [rule.slice(-8)] });
    expect(again.structured).toMatchObject({ forgotten: [], not_found: [rule.slice(-8)] });
  });

  it("finds no entry by the handle of another agent's private note, and leaves the note stored", async () => {
    const note = entryId(await bob.call('note', { content: 'Always squash before merging, bob thinks' }));
    const handle = handleIn(await brief(bob), 'Always squash before merging');
    expect(handle).toBe(note.slice(-8));
    const replaced = await alice.call('remember', { content: 'Squash or not, as you like', supersedes: handle });
    expect(replaced.isError).toBe(true);
    expect(replaced.text).toContain(`supersedes: entry ${handle} not found`);
    const story = await alice.call('space', { view: 'history', entry_id: handle });
    expect(story.isError).toBe(true);
    expect(story.text).toContain(`entry_id: entry ${handle} not found`);
    expect(story.text).not.toContain(note);
    expect((await alice.call('space', { view: 'ledger', entry_id: handle })).isError).toBe(true);
    const forgot = await alice.call('forget', { id: handle });
    expect(forgot.structured).toEqual({ forgotten: [], not_found: [handle], forgotten_before: [] });
    expect(forgot.text).toContain(`Not found, or another agent's private entry: ${handle}.`);
    // bob's note is still there, and bob reaches it by the same handle
    const mine = await bob.call('space', { view: 'history', entry_id: handle });
    expect(mine.isError, mine.text).toBe(false);
    expect((mine.structured.history as { entry: { id: string } }).entry.id).toBe(note);
  });

  // ids are chosen by hand below, through the database, which the test reaches on Postgres only
  // (on PGlite the server holds it; the same rules there: test/storage/sql-functions.test.ts)
  it.runIf(db !== 'pglite')(
    'refuses a handle two entries the caller reads share, naming both; a private twin counts for its author only',
    async () => {
      const keyHash = await hashKey(key);
      /** An entry written with a chosen id, as the tool's SQL function writes it. */
      const writeWithId = async (agent: string, id: string, args: Record<string, unknown>) => {
        await (t.pg as TestDatabase).query('SELECT cairn_write($1, $2, $3, $4::jsonb)', [
          keyHash,
          agent,
          PROJECT,
          JSON.stringify({ id, dedup: false, default_scope: null, ...args }),
        ]);
      };
      const twinOf = (id: string) => `${uuidv7().slice(0, -8)}${id.slice(-8)}`;

      const first = entryId(
        await alice.call('decide', { content: 'Retry webhooks three times', rationale: 'flaky peers' }),
      );
      const handle = first.slice(-8);
      const second = twinOf(first);
      await writeWithId('alice', second, {
        kind: 'decision',
        op: 'decide',
        content: 'Log every webhook',
        rationale: 'audits',
      });
      const both = [first, second].sort().join(', ');
      const refused = await bob.call('decide', {
        content: 'Retry webhooks five times',
        rationale: 'x',
        supersedes: handle,
      });
      expect(refused.isError).toBe(true);
      expect(refused.text).toContain(`supersedes: handle ${handle} names 2 entries (${both}); pass the full id`);
      const forgot = await bob.call('forget', { ids: [handle] });
      expect(forgot.isError).toBe(true);
      expect(forgot.text).toContain(`ids: handle ${handle} names 2 entries (${both}); pass the full id`);
      const history = await bob.call('space', { view: 'history', entry_id: handle });
      expect(history.text).toContain(`entry_id: handle ${handle} names 2 entries`);
      // nothing was changed; the full id still works
      const byId = await bob.call('decide', {
        content: 'Retry webhooks five times',
        rationale: 'x',
        supersedes: first,
      });
      expect(byId.isError, byId.text).toBe(false);

      // bob's private note shares the handle of a shared entry: to alice the handle names the shared one
      const shared = entryId(await alice.call('remember', { content: 'Webhook secrets rotate monthly' }));
      const secret = twinOf(shared);
      await writeWithId('bob', secret, {
        kind: 'note',
        op: 'note',
        default_scope: 'agent',
        content: 'bob private twin',
      });
      const story = await alice.call('space', { view: 'history', entry_id: shared.slice(-8) });
      expect(story.isError, story.text).toBe(false);
      expect((story.structured.history as { entry: { id: string } }).entry.id).toBe(shared);
      expect(story.text).not.toContain(secret);
      const mine = await bob.call('space', { view: 'history', entry_id: shared.slice(-8) });
      expect(mine.isError).toBe(true);
      expect(mine.text).toContain(`names 2 entries (${[shared, secret].sort().join(', ')})`);
    },
  );

  it('takes an id or a handle, and says so when given neither; artifact_get takes ids only', async () => {
    const bad = await alice.call('decide', { content: 'x', rationale: 'y', supersedes: '3f9c2a7' });
    expect(bad.isError).toBe(true);
    expect(bad.text).toContain(
      "supersedes: must be an id (a UUID) or an entry's handle (its id's last 8 hex digits, as the brief shows)",
    );
    const artifact = await alice.call('artifact_get', { id: '3f9c2a71' });
    expect(artifact.isError).toBe(true);
    expect(artifact.text).toContain('id: must be an id returned by a Cairn tool (a UUID)');
  });
});
