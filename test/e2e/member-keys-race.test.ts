/**
 * A member's removal takes every key they created, whatever the interleaving: the member creates
 * keys in several concurrent loops while an owner removes them, round after round, and no key of
 * theirs works in the org afterwards (issue 38.1: on Postgres a key committed while the removal ran
 * used to survive it). On the Node server over both databases, through the dashboard as a browser
 * drives it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserLike } from '../helpers/browser-like';
import { headersFor, rawPost, toolCall } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

const ROUNDS = 24;
const CREATORS = 4;
const secretIn = (html: string) => /<code id="secret">(svc_[0-9A-Za-z]+)<\/code>/.exec(html)?.[1];

describe.each(DB_KINDS)('member removal against key creation on %s', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer(db);
  });
  afterAll(() => t?.close());

  async function signUp(b: BrowserLike, email: string, org: string) {
    await b.get('/dashboard/signup');
    await b.post('/dashboard/signup', { email, password: 'correct horse battery', org });
  }

  /** The org name a key reaches, or null when the key does not work. */
  async function orgOf(key: string): Promise<string | null> {
    const res = await rawPost(t.mcpUrl, toolCall('space', {}), headersFor({ key, agent: 'probe' }));
    if (res.status === 401) return null;
    const text = JSON.stringify(await res.json());
    return /Org \\"([^\\]+)\\"/.exec(text)?.[1] ?? `unreadable: ${text.slice(0, 200)}`;
  }

  it(`leaves no working key of the removed member in ${ROUNDS} raced rounds`, async () => {
    const owner = new BrowserLike(t.url);
    const mate = new BrowserLike(t.url);
    await signUp(owner, `owner-${db}@example.com`, 'Raced Org');
    await signUp(mate, `mate-${db}@example.com`, 'Mate Home');
    let mateId = '';
    const survivors: string[] = [];
    let created = 0;
    let createdBeforeRemoval = 0;

    for (let round = 0; round < ROUNDS; round++) {
      await owner.get('/dashboard/settings/members');
      const invited = await owner.post('/dashboard/settings/members', { email: `mate-${db}@example.com` });
      const link = /(\/dashboard\/invitations\/[0-9a-f-]{36}\?code=[\w-]+)/.exec(invited.html)?.[1] as string;
      await mate.get(link);
      const u = new URL(link, t.url);
      await mate.post(`${u.pathname}/accept`, { code: u.searchParams.get('code') as string });
      expect((await mate.get('/dashboard/settings/keys')).html).toContain('Raced Org');
      if (!mateId) {
        const members = (await owner.get('/dashboard/settings/members')).html;
        mateId = new RegExp(`members/([0-9a-f-]{36})/remove" aria-label="Remove mate-${db}@`).exec(members)?.[1] ?? '';
        expect(mateId).not.toBe('');
      }

      let removed = false;
      const keys: string[] = [];
      const creator = async (n: number) => {
        for (let i = 0; !removed; i++) {
          const page = await mate.post('/dashboard/settings/keys', { name: `r${round} c${n} k${i}` });
          const secret = secretIn(page.html);
          if (secret) keys.push(secret);
          else if (page.status !== 403 && page.status !== 401) throw new Error(`key create: ${page.status}`);
        }
      };
      const remover = async () => {
        // let the creators get going, a little longer each round, so removal lands at many points
        await new Promise((r) => setTimeout(r, 5 + ((round * 7) % 40)));
        await owner.get(`/dashboard/settings/members/${mateId}/remove`);
        const res = await owner.post(`/dashboard/settings/members/${mateId}/remove`, {});
        expect(res.html).toContain('The member was removed.');
        createdBeforeRemoval += keys.length;
        removed = true;
      };
      await Promise.all([remover(), ...Array.from({ length: CREATORS }, (_, n) => creator(n))]);
      created += keys.length;
      for (const key of keys) if ((await orgOf(key)) === 'Raced Org') survivors.push(key);
    }
    // the race was run: keys were made while the removal was under way, round after round
    expect(createdBeforeRemoval).toBeGreaterThan(ROUNDS);
    expect(created).toBeGreaterThan(createdBeforeRemoval - 1);
    expect(survivors).toEqual([]);
  });
});
