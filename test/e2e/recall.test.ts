/** Recall ranking: BM25-like weighting, stemming, any-word matching, exact identifiers, recency. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_MENTIONED } from '../../src/mcp/tools/recall';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { DB_KINDS, startTestServer, type TestServer } from '../helpers/server';

describe.each(DB_KINDS)('recall ranking on %s', (db) => {
  let t: TestServer;
  let orgId: string;
  let key: string;
  let s: McpSession;
  const ids: Record<string, string> = {};
  const remember = async (name: string, content: string) => {
    ids[name] = ((await s.call('remember', { content, scope: 'org' })).structured.entry as { id: string }).id;
  };
  /** The hits `who` gets back for `query`, best first. */
  const hitsOf = async (who: McpSession, query: string, extra: Record<string, unknown> = {}) =>
    (await who.call('recall', { query, ...extra })).structured.hits as { id: string; score: number }[];
  /** Their ids. */
  const ask = async (who: McpSession, query: string, extra: Record<string, unknown> = {}) =>
    (await hitsOf(who, query, extra)).map((h) => h.id);
  const top = (query: string, limit = 10) => ask(s, query, { limit });

  beforeAll(async () => {
    t = await startTestServer(db);
    const org = await t.createOrg('acme');
    orgId = org.orgId;
    key = org.key;
    s = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker' });
    for (let i = 0; i < 8; i++)
      await remember(`filler${i}`, `The team met on Monday to talk about the project plan, item ${i}.`);
    await remember('deploy', 'Deployments run from scripts/deploy.sh on the build host.');
    await remember('words', 'Our scripts deploy things; deploy scripts are shell scripts.');
    await remember('kafka', 'Kafka consumers lag when the partition count is too low.');
    await remember('old', 'The staging database password rotates weekly.');
    await remember('new', 'The staging database password rotates weekly!');
    await remember('camel', 'The useEffect hook re-runs when dependencies change.');
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  it('matches any content word of a question, not all of them', async () => {
    expect((await top('why do kafka consumers fall behind on Tuesday?'))[0]).toBe(ids.kafka);
  });

  it('stems words, so other forms of a word match', async () => {
    expect(await top('deploying')).toEqual(expect.arrayContaining([ids.deploy, ids.words]));
    expect((await top('consumer lagging'))[0]).toBe(ids.kafka);
  });

  it('weights rare words over common ones', async () => {
    // "team", "monday", "project" are in eight entries, "partition" in one
    expect((await top('team monday project partition'))[0]).toBe(ids.kafka);
  });

  it('matches identifiers and paths exactly, above entries that only share their words', async () => {
    expect((await top('where is scripts/deploy.sh?'))[0]).toBe(ids.deploy);
    expect((await top('useEffect'))[0]).toBe(ids.camel);
  });

  it('breaks ties by recency', async () => {
    const r = (await s.call('recall', { query: 'staging password rotation' })).structured.hits as {
      id: string;
      score: number;
    }[];
    expect(r.slice(0, 2).map((h) => h.id)).toEqual([ids.new, ids.old]);
    expect(r[0]?.score).toBe(r[1]?.score);
  });

  it("says which of the question's telling words no hit mentions, a synonym or other form counting as a mention", async () => {
    const partly = await s.call('recall', { query: 'kafka rebalancing storms' });
    // the kafka entry, and the writes around it as its context
    expect((partly.structured.hits as { id: string }[])[0]?.id).toBe(ids.kafka);
    const note =
      'No hit mentions "rebalancing" or "storms", or a synonym or other form of them: these were found by the question\'s other words.';
    // in the text, and in the structured result that Claude Code and Codex hand the model
    expect(partly.text.endsWith(`\nNote: ${note}`)).toBe(true);
    expect(partly.structured.notice).toBe(note);
    // a long question: the first eight such words, and how many more
    const many = await s.call('recall', {
      query: 'kafka zorbal quintrel flimbat gardo hexlon prumit vostra welkin yarrowb zindle',
    });
    expect(many.structured.notice).toBe(
      'No hit mentions "zorbal", "quintrel", "flimbat", "gardo", "hexlon", "prumit", "vostra" or "welkin" (nor 2 more of the question\'s words), or a synonym or other form of them: these were found by the question\'s other words.',
    );
    // read as of a time, entries are shown as they were but matched by their text of now: no note
    const then = await s.call('recall', { query: 'kafka rebalancing storms', as_of: new Date().toISOString() });
    expect((then.structured.hits as { id: string }[])[0]?.id).toBe(ids.kafka);
    expect(then.structured.notice).toBeUndefined();
    // "lagging" is held as "lag", "rollout" as its synonym "deploy": nothing to say
    for (const query of ['kafka consumers lagging', 'rollout scripts']) {
      const all = await s.call('recall', { query });
      expect((all.structured.hits as unknown[]).length).toBeGreaterThan(0);
      expect(all.structured.notice).toBeUndefined();
      expect(all.text).not.toContain('Note:');
    }
  });

  it('returns nothing for words no entry holds, and recent entries for an empty query', async () => {
    expect(await top('xylophone quagmire')).toEqual([]);
    expect((await top(''))[0]).toBe(ids.camel);
  });

  it('leaves out what shares only the language of a request with the question', async () => {
    const dev = await connect('v2', t.mcpUrl, { key, agent: 'ranker', project: '/repo/evidence' });
    try {
      const say = async (content: string) =>
        ((await dev.call('remember', { content })).structured.entry as { id: string }).id;
      const changelog = await say('Write the changelog entry before tagging; an example is in docs/CHANGELOG.md.');
      // "write" and "example" match, but say nothing of closures: no hit rather than a wrong one
      expect(await ask(dev, 'write an example of a closure, the short way')).toEqual([]);
      // and the model reads where recall looked and what to try next
      const none = await dev.call('recall', { query: 'write an example of a closure, the short way' });
      expect(none.text).toMatch(
        /^No matching entries in project \S*evidence, the org-wide entries or yours\. Recall matches the words entries use \(names, identifiers, paths\), not their meaning: try other words, or scope "org" to search every project\.$/,
      );
      // clients that hand the model the structured result (Claude Code, Codex) show it the same words
      expect(none.structured.notice).toBe(none.text);
      const filtered = await dev.call('recall', { query: 'changelog', scope: 'org', kinds: ['plan'] });
      expect(filtered.text).toBe(
        "No matching entries in the org's shared entries and yours that pass kinds. Recall matches the words entries use (names, identifiers, paths), not their meaning: try other words.",
      );
      // written by another agent, so the changelog is no context of it
      const other = await connect('v2', t.mcpUrl, { key, agent: 'other', project: '/repo/evidence' });
      const closure = entryId(
        await other.call('remember', { content: 'The pricing closure captures the basket by reference: copy it.' }),
      );
      await other.close();
      expect(await ask(dev, 'write an example of a closure, the short way')).toEqual([closure]);
      // a question of request words alone has nothing to hold a hit to: every match counts
      expect(await ask(dev, 'can you write an example?')).toContain(changelog);
    } finally {
      await dev.close();
    }
  });

  it("leaves out an agent's writes on other topics and decisions that share only their kind with the question", async () => {
    const org = await t.createOrg('newuser');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'alice', project: '/repo/shop' });
    try {
      const write = async (tool: string, args: Record<string, unknown>) => entryId(await dev.call(tool, args));
      const down = await write('observe', {
        content: 'staging DB is down: connection refused since the deploy',
        source: 'ci',
      });
      const postgres = await write('decide', {
        content: 'Use Postgres 16 for the orders database, not MySQL',
        rationale: 'JSONB and row-level security',
      });
      await write('remember', { content: 'Run npm test before pushing; CI takes 12 minutes' });
      const squash = await write('decide', {
        content: 'Squash-merge pull requests into main',
        rationale: 'linear history',
      });
      await write('note', { content: 'Lunch order: pizza on Fridays' });
      await dev.call('forget', { id: down, reason: 'fixed' });
      // one agent wrote all of these in a row, yet the writes next to a match are no answer to it
      const staging = await dev.call('recall', { query: 'staging DB down' });
      expect((staging.structured.hits as { id: string }[]).map((h) => h.id)).toEqual([postgres]);
      expect(staging.text).toContain('No hit mentions "staging"');
      // "decide" says which kind is asked for, not what about: the other decision is no answer,
      // nor, two writes on, its context
      expect(await ask(dev, 'what did we decide about the database?')).toEqual([postgres]);
      // asked for decisions alone, every decision is
      expect(await ask(dev, 'what did we decide?')).toEqual([squash, postgres]);
    } finally {
      await dev.close();
    }
  });

  it('ranks a prompt of several sentences by the sentence an entry answers, so framing words do not outrank it', async () => {
    const org = await t.createOrg('framing');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/repo/site' });
    try {
      const say = async (tool: string, args: Record<string, unknown>) => entryId(await dev.call(tool, args));
      const team = await say('remember', { content: 'The docs team reads the code of every change on Fridays.' });
      // written apart, so that neither is the other's context
      for (const i of [1, 2, 3, 4, 5, 6])
        await say('remember', { content: `Nightly job ${i} exports the invoices to the warehouse.` });
      const left = await say('decide', {
        content: 'The docs site moved from Docusaurus to Starlight.',
        rationale: 'Its builds took nine minutes.',
      });
      const framed = "I just joined the team and I'm reading through the code. Why did the docs site leave Docusaurus?";
      const hits = await hitsOf(dev, framed);
      // the decision answers the question; the team's habit shares the framing's words and "docs"
      expect(hits[0]?.id).toBe(left);
      expect(hits.map((h) => h.id)).toContain(team);
    } finally {
      await dev.close();
    }
  });

  it('says no word is unmentioned that a hit answers by its kind: "status" by a plan, which shows its status', async () => {
    const org = await t.createOrg('status-words');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/repo/cache' });
    try {
      const plan = entryId(
        await dev.call('plan', {
          title: 'Redis migration to the managed cluster',
          steps: [{ text: 'copy the keys' }, { text: 'switch the clients' }],
          status: 'active',
        }),
      );
      const page = await dev.call('recall', { query: 'what is the status of the redis migration?' });
      expect((page.structured.hits as { id: string }[]).map((h) => h.id)).toEqual([plan]);
      expect(page.text).toContain('[active, 0/2 steps done]');
      expect(page.text).not.toContain(NOT_MENTIONED);
      // a memory shows no status: the page says so
      await dev.call('remember', { content: 'The Memcached eviction runs hourly.' });
      const cache = await dev.call('recall', { query: 'status of the memcached eviction?' });
      expect(cache.text).toContain(`${NOT_MENTIONED}"status"`);
    } finally {
      await dev.close();
    }
  });

  it('puts the later of two entries on a question first when it asks for the state things are in now', async () => {
    const org = await t.createOrg('now-words');
    const fw = await connect('v2', t.mcpUrl, { key: org.key, agent: 'firmware', project: '/repo/tracker' });
    const ops = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ops', project: '/repo/tracker' });
    try {
      const before = entryId(await fw.call('remember', { content: 'The trackers send an MQTT keepalive every 60 s.' }));
      for (const i of [1, 2, 3]) await ops.call('remember', { content: `Broker node ${i} runs on its own volume.` });
      const after = entryId(
        await ops.call('remember', { content: 'Tracker MQTT keepalive raised to 240 s for the carrier NAT.' }),
      );
      // the shorter, earlier entry ranks first; asked for what holds now, the later one on the same
      // thing is the current word
      expect((await ask(fw, 'what MQTT keepalive do the trackers use?')).slice(0, 2)).toEqual([before, after]);
      expect((await ask(fw, 'what MQTT keepalive do the trackers use now?')).slice(0, 2)).toEqual([after, before]);
      // written again (deduplicated, confirmed), the earlier entry is the later word
      await fw.call('remember', { content: 'The trackers send an MQTT keepalive every 60 s.' });
      expect((await ask(fw, 'what MQTT keepalive do the trackers use now?')).slice(0, 2)).toEqual([before, after]);
    } finally {
      await fw.close();
      await ops.close();
    }
  });

  it('takes a synonym of several words as a phrase, not each of its words', async () => {
    const org = await t.createOrg('phrases');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/repo/auth' });
    const ops = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ops', project: '/repo/auth' });
    try {
      const note = async (who: McpSession, content: string) => entryId(await who.call('remember', { content }));
      await note(dev, 'The public API rate limit is 100 requests per minute.');
      const rotate = await note(ops, 'Rotate the Stripe API key every month.');
      const capped = await note(dev, 'Login attempts are capped after credential stuffing from one IP.');
      await note(ops, 'The credential rotation runbook lives in docs/ops.');
      // "api key" stands for a secret, "api" alone does not; "credential stuffing" for brute force
      expect(await ask(dev, 'where do we keep secrets?')).toEqual([rotate]);
      expect(await ask(dev, 'brute force protection')).toEqual([capped]);
      // and a hit that says "API" is no mention of "secrets"
      const web = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/repo/web' });
      const gateway = entryId(await web.call('remember', { content: 'The API gateway times out after 30 s.' }));
      const page = await web.call('recall', { query: 'where do we keep API secrets?', scope: 'project' });
      await web.close();
      expect((page.structured.hits as { id: string }[]).map((h) => h.id)).toEqual([gateway]);
      expect(page.structured.notice).toContain('No hit mentions "secrets"');
    } finally {
      await dev.close();
      await ops.close();
    }
  });

  it('takes an abbreviation the org never wrote for itself and its synonyms, not for every word it begins', async () => {
    const org = await t.createOrg('abbreviations');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/repo/checkout' });
    try {
      const flaky = entryId(await dev.call('remember', { content: 'The checkout suite has a flaky test problem.' }));
      // "PR" is no evidence of "problem", which says nothing of a pull request
      expect(await ask(dev, 'any problem with the PR?')).toEqual([]);
      expect(await ask(dev, 'any problem with the flaky suite?')).toEqual([flaky]);
    } finally {
      await dev.close();
    }
  });

  it('brings the memories written next to a match as context, ranked below it', async () => {
    const conv = await connect('v2', t.mcpUrl, { key: key, agent: 'ranker', project: '/chat/one' });
    try {
      const say = async (content: string) =>
        ((await conv.call('remember', { content })).structured.entry as { id: string }).id;
      await say('Anna: the weather was lovely today.');
      const question = await say('Ben: what did you name the new puppy?');
      const answer = await say('Anna: we called him Biscuit, after his colour.');
      const later = await say('Ben: lovely, see you at the weekend.');
      const hits = await hitsOf(conv, 'What is the name of the puppy?');
      // the answer shares no word with the question; it is found as the matching turn's neighbour
      expect(hits.map((h) => h.id).slice(0, 2)).toEqual([question, answer]);
      expect(hits[1]?.score).toBeLessThan(hits[0]?.score ?? 0);
      expect(hits.map((h) => h.id)).toContain(later);
      // context stays within the project: the org-wide entries above are not neighbours here
      expect(hits.map((h) => h.id)).not.toContain(ids.camel);
    } finally {
      await conv.close();
    }
  });

  it('brings the reply to a matching question up with the question itself', async () => {
    const org = await t.createOrg('asked');
    const conv = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/chat/vet' });
    try {
      const say = async (content: string) => entryId(await conv.call('remember', { content }));
      const asked = await say('Ben: which vet does the puppy go to?');
      const reply = await say('Anna: the puppy sees Dr Hale on Main Street.');
      const hits = await hitsOf(conv, 'which vet does the puppy go to?');
      // what answers a question comes next: the reply lends as much as the question holds (the
      // newer first on a tie), where a statement's next write lends a step less (the test above)
      expect(hits.map((h) => h.id)).toEqual([reply, asked]);
      expect(hits[0]?.score).toBe(hits[1]?.score);
    } finally {
      await conv.close();
    }
  });

  it("brings as context a neighbour that says something of the question, not the agent's next write on another topic", async () => {
    const org = await t.createOrg('thread');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/java/driver' });
    try {
      const note = async (content: string) => entryId(await dev.call('remember', { content }));
      const before = await note('The driver registers itself through ServiceLoader.');
      const match = await note('JDK 17 is the baseline for the driver.');
      const after = await note('Lunch is at noon on Fridays.');
      const hits = await hitsOf(dev, 'JDK for the driver');
      // both were written next to the match; the one about the driver comes as its context, below
      // it, the lunch note is no answer for being written next
      expect(hits.map((h) => h.id)).toEqual([match, before]);
      expect(hits[1]?.score).toBeLessThan(hits[0]?.score ?? 0);
      expect(hits.map((h) => h.id)).not.toContain(after);
    } finally {
      await dev.close();
    }
  });

  it('brings no neighbour its writer labelled as another topic: both tagged, no tag in common', async () => {
    const org = await t.createOrg('labelled');
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ranker', project: '/shop/api' });
    try {
      const note = async (content: string, tags: string[]) => entryId(await dev.call('remember', { content, tags }));
      const coupons = await note('Coupon codes are uppercased on write and on every lookup.', ['coupons', 'checkout']);
      const match = await note('List endpoints use cursor pagination with an opaque cursor.', ['API', 'pagination']);
      const port = await note('The service listens on 4000 locally on every pod.', ['api', 'local-dev']);
      const hits = await hitsOf(dev, 'pagination of list endpoints, on every page');
      // both neighbours say "every", a word of the question but none it must hold a hit to; the
      // one that shares a tag (in other case) comes as context, the coupon rule written next to it
      // is another subject
      expect(hits.map((h) => h.id)).toEqual([match, port]);
      expect(hits.map((h) => h.id)).not.toContain(coupons);
    } finally {
      await dev.close();
    }
  });

  it('brings the entry that names a rare identifier of a match, not a release number or a common name', async () => {
    const org = await t.createOrg('references');
    const ci = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ci-bot', project: '/web/shop' });
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'dev', project: '/web/shop' });
    try {
      const note = async (who: McpSession, content: string, tool = 'remember') =>
        entryId(await who.call(tool, { content }));
      const failed = await note(
        ci,
        'Build failed on main after enabling noUncheckedIndexedAccess in tsconfig.json: TS2345 in src/orders/service.ts, release 4.2.0.',
        'observe',
      );
      for (let i = 0; i < 4; i++) await note(dev, `Worked on src/orders/service.ts, part ${i} of the cart refactor.`);
      const release = await note(dev, 'Shipped 4.2.0 to the app stores on Thursday.');
      const fixed = await note(dev, 'Fixed the TS2345 errors: lines.at(0) with a guard, no non-null assertions.');
      const hits = await hitsOf(dev, 'why did the build break after the tsconfig change?');
      const ids = hits.map((h) => h.id);
      // the fix shares no word with the question; it names the failure's error code, which no other
      // entry does, and comes below the failure as its context
      expect(ids[0]).toBe(failed);
      expect(ids).toContain(fixed);
      expect(hits.find((h) => h.id === fixed)?.score).toBeLessThan(hits[0]?.score ?? 0);
      // a release number names a release, not a subject; a path five entries name tells nothing
      expect(ids).not.toContain(release);
      expect(ids.filter((id) => id !== failed && id !== fixed)).toEqual([]);
    } finally {
      await ci.close();
      await dev.close();
    }
  });

  it('brings the entry that carries two tags of a match, one of them rare; not one tag, nor two common ones', async () => {
    const org = await t.createOrg('topics');
    const sre = await connect('v2', t.mcpUrl, { key: org.key, agent: 'sre', project: '/fleet/tracker' });
    const fw = await connect('v2', t.mcpUrl, { key: org.key, agent: 'firmware', project: '/fleet/tracker' });
    try {
      const note = async (who: McpSession, content: string, tags: string[], tool = 'remember') =>
        entryId(await who.call(tool, { content, tags }));
      const dropped = await note(
        sre,
        'Trackers on one carrier keep dropping off the broker every five minutes.',
        ['mqtt', 'connectivity', 'incident'],
        'observe',
      );
      // "mqtt" and "incident" are on five and four entries, "connectivity" on three
      const broker = await note(fw, 'Broker moved to EMQX 5 with persistent sessions.', ['mqtt', 'broker']);
      await note(fw, 'Topic names follow tele/<device>/<stream>.', ['mqtt', 'conventions']);
      const postmortem = await note(fw, 'Postmortem for the certificate expiry is written.', ['MQTT', 'incident']);
      await note(fw, 'Pager rota changes on Mondays.', ['incident', 'oncall']);
      await note(fw, 'Status page moved to the new domain.', ['incident', 'web']);
      const wifi = await note(fw, 'Office wifi password rotated in March.', ['connectivity', 'office']);
      // the fix says no word of the question; its writer labelled it as the failure (in other case)
      const fixed = await note(fw, 'Ping interval lowered to four minutes, under the NAT idle timeout.', [
        'MQTT',
        'Connectivity',
        'config',
      ]);
      const hits = await hitsOf(sre, 'why do trackers keep dropping off?');
      const ids = hits.map((h) => h.id);
      expect(ids).toEqual([dropped, fixed]);
      expect(hits[1]?.score).toBeLessThan(hits[0]?.score ?? 0);
      // one tag in common ("connectivity") is a label, and so are two that many entries carry
      expect(ids).not.toContain(wifi);
      expect(ids).not.toContain(postmortem);
      expect(ids).not.toContain(broker);
    } finally {
      await sre.close();
      await fw.close();
    }
  });

  it("counts no other agent's private entries in a reference, nor brings them by it", async () => {
    const org = await t.createOrg('private-references');
    const ci = await connect('v2', t.mcpUrl, { key: org.key, agent: 'ci-bot', project: '/web/shop' });
    const dev = await connect('v2', t.mcpUrl, { key: org.key, agent: 'dev', project: '/web/shop' });
    const eve = await connect('v2', t.mcpUrl, { key: org.key, agent: 'eve', project: '/web/shop' });
    try {
      const note = async (who: McpSession, args: Record<string, unknown>, tool = 'remember') =>
        entryId(await who.call(tool, args));
      const failed = await note(
        ci,
        { content: 'Checkout build failed on main: TS7053 in src/cart/total.ts.' },
        'observe',
      );
      for (let i = 0; i < 3; i++) await note(dev, { content: `Standup notes, day ${i}.` });
      const fixed = await note(dev, { content: 'Fixed the TS7053 errors with an index signature on Prices.' });
      // three private entries naming the code: counted, the code would be on five entries, no reference
      const hidden: string[] = [];
      for (let i = 0; i < 3; i++)
        hidden.push(await note(eve, { content: `TS7053 scratch ${i}: try keyof typeof first.`, scope: 'agent' }));
      const ids = await ask(dev, 'why did the checkout build break?');
      expect(ids[0]).toBe(failed);
      expect(ids).toContain(fixed);
      for (const id of hidden) expect(ids).not.toContain(id);
    } finally {
      await ci.close();
      await dev.close();
      await eve.close();
    }
  });

  it("takes context only from the same agent's thread of work that the reader may see", async () => {
    const alice = await connect('v2', t.mcpUrl, { key: key, agent: 'alice', project: '/chat/two' });
    const bob = await connect('v2', t.mcpUrl, { key: key, agent: 'bob', project: '/chat/two' });
    try {
      const before = entryId(await bob.call('remember', { content: 'when does standup start now?' }));
      const secret = entryId(
        await alice.call('remember', { content: 'my password hint is marmalade', scope: 'agent' }),
      );
      const after = entryId(await bob.call('remember', { content: 'ten sharp, in the Juniper room' }));
      // bob cannot see the private entry, so it lends no context to its neighbours
      expect((await bob.call('recall', { query: 'marmalade hint' })).structured.hits).toEqual([]);
      // bob's question takes the next entry of his own thread, its reply, as context across alice's
      // write
      const bobHits = ((await bob.call('recall', { query: 'standup' })).structured.hits as { id: string }[]).map(
        (h) => h.id,
      );
      expect(bobHits).toEqual([before, after]);
      // alice's entry has no thread around it: another agent's entries are not her context
      const aliceHits = (
        (await alice.call('recall', { query: 'marmalade hint' })).structured.hits as { id: string }[]
      ).map((h) => h.id);
      expect(aliceHits).toEqual([secret]);
      // a thread ends when the org's other writes come in between
      for (let i = 0; i < 2; i++) await alice.call('remember', { content: `alice's unrelated work ${i}` });
      const late = entryId(await bob.call('remember', { content: 'and is the retro on friday?' }));
      const again = ((await bob.call('recall', { query: 'Juniper' })).structured.hits as { id: string }[]).map(
        (h) => h.id,
      );
      expect(again).toEqual([after, before]);
      expect(again).not.toContain(late);
    } finally {
      await alice.close();
      await bob.close();
    }
  });

  it('finds a replacement by the words of what it replaced, where the reader may see both', async () => {
    const chain = await t.createOrg('chain');
    const mine = await connect('v2', t.mcpUrl, { key: chain.key, agent: 'ranker', project: '/app/mobile' });
    const other = await connect('v2', t.mcpUrl, { key: chain.key, agent: 'other', project: '/app/mobile' });
    try {
      const old = entryId(
        await mine.call('remember', { content: 'The mobile app pins its toolkit with FVM at 3.22.3.' }),
      );
      await new Promise((r) => setTimeout(r, 20));
      const between = new Date().toISOString();
      await new Promise((r) => setTimeout(r, 20));
      // the replacement shares no word with the question: it is found through what it replaced
      const now = entryId(
        await mine.call('remember', { content: 'Bumped to 3.27.1 for the Impeller fix.', supersedes: old }),
      );
      const question = 'which toolkit version does the mobile app pin?';
      expect(await ask(mine, question)).toEqual([now]);
      expect(await ask(other, question)).toEqual([now]);
      // as it stood before, the entry itself; asked for the replaced versions too, the replaced
      // one by its own words and its replacement, as ever, by them (the newer first on a tie)
      expect(await ask(mine, question, { as_of: between })).toEqual([old]);
      expect(await ask(mine, question, { include_superseded: true })).toEqual([now, old]);
      // filters hold for the replacement: a read of decisions gets none
      expect(await ask(mine, question, { kinds: ['decision'] })).toEqual([]);
      // a private chain lends nothing to a reader who may not see it
      const hint = entryId(
        await mine.call('remember', { content: 'my local broker listens on port 18830', scope: 'agent' }),
      );
      const moved = entryId(
        await mine.call('remember', { content: 'moved it again, now 18840', scope: 'agent', supersedes: hint }),
      );
      expect((await ask(mine, 'local broker port'))[0]).toBe(moved);
      expect(await ask(other, 'local broker port')).toEqual([]);
    } finally {
      await mine.close();
      await other.close();
    }
  });

  it('reads every project of an org of many projects', async () => {
    const many = await t.createOrg('many');
    const m = await connect('v2', t.mcpUrl, { key: many.key, agent: 'ranker' });
    try {
      const made: string[] = [];
      for (let i = 0; i < 70; i++) {
        const r = await m.call('remember', { content: `shard ${i} rebalanced overnight`, project: `/svc/${i}` });
        made.push((r.structured.entry as { id: string }).id);
      }
      const hits = (await m.call('recall', { query: 'rebalanced shard', scope: 'org', limit: 100 })).structured
        .hits as { id: string }[];
      expect(hits.map((h) => h.id).sort()).toEqual([...made].sort());
    } finally {
      await m.close();
    }
  });

  it.runIf(db === 'postgres')('keeps its statistics equal to a rebuild after writes, updates and forgets', async () => {
    const p = (
      (await s.call('plan', { title: 'migrate kafka', steps: [{ text: 'drain partitions' }] })).structured.entry as {
        id: string;
      }
    ).id;
    await s.call('plan', { id: p, title: 'migrate kafka cluster', steps: [{ text: 'rebalance brokers' }] });
    await s.call('remember', { content: 'brokers rebalanced overnight', tags: ['Kafka', 'ops'] });
    const gone = entryId(await s.call('remember', { content: 'broker disk alarm', tags: ['ops', 'alarms'] }));
    await s.call('forget', { ids: [ids.filler0, ids.words, gone] });
    const queries = [
      'SELECT lexeme, agent_key, df FROM term_stats WHERE org_id = $1 AND df > 0 ORDER BY lexeme, agent_key',
      'SELECT docs, lexemes FROM entry_stats WHERE org_id = $1 ORDER BY agent_key',
      'SELECT lexeme, entry_id FROM postings WHERE org_id = $1 ORDER BY lexeme, entry_id',
    ];
    const read = () => Promise.all(queries.map((q) => t.pg?.query(q, [orgId])));
    const before = await read();
    await t.pg?.query('SELECT cairn_rebuild_recall_index($1)', [orgId]);
    expect(await read()).toEqual(before);
    // 28 memories + 1 plan − 3 forgotten, counted per visibility (shared, and each agent's private ones)
    expect((before[1] ?? []).reduce((n, r) => n + Number(r.docs), 0)).toBe(26);
    const keys = new Set(before[2]?.map((r) => r.lexeme));
    expect(keys.has('#scripts/deploy.sh')).toBe(true);
    // tags are filed in lower case, and a forgotten entry's go with it
    expect([...keys].filter((k) => String(k).startsWith('@t:')).sort()).toEqual(['@t:kafka', '@t:ops']);
  });
});
