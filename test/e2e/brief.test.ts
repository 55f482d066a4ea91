/** space view brief (what to know before starting) and view history (one entry's story), over MCP. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const PROJECT = '/srv/shop';

interface BriefOut {
  budget_chars: number;
  chars: number;
  left_out: number;
  sections: {
    section: string;
    items: {
      id: string;
      kind: string;
      text: string;
      agent: string;
      at: string;
      paths: string[] | null;
      commit: string | null;
    }[];
  }[];
}
interface HistoryOut {
  entry: { id: string; created_at: string; updated_at: string };
  versions: { version: number; op: string; agent: string }[];
  chain: { id: string }[];
  events: { op: string; entry_id: string }[];
}

describe.each(TARGETS)('brief and history on %s', (db) => {
  let t: TestServer;
  let alice: McpSession;
  let bob: McpSession;
  let key: string;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
    alice = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: PROJECT });
    bob = await connect('v2-modern', t.mcpUrl, { key, agent: 'bob', project: PROJECT });
    const write = async (s: McpSession, name: string, tool: string, args: Record<string, unknown>) => {
      const r = await s.call(tool, args);
      expect(r.isError, r.text).toBe(false);
      ids[name] = entryId(r);
    };
    await write(alice, 'oldDecision', 'decide', { content: 'Use Prisma for database access', rationale: 'fast start' });
    await write(bob, 'decision', 'decide', {
      content: 'Use Kysely for database access',
      rationale: 'slot reservation needs row locks',
      supersedes: ids.oldDecision,
    });
    await write(alice, 'convention', 'remember', {
      content: 'Never rename a column in one release: expand, backfill, contract.',
      tags: ['conventions'],
    });
    await write(alice, 'plan', 'plan', {
      title: 'Move payments to PaymentIntents',
      steps: [
        { text: 'Port checkout', status: 'done' },
        { text: 'Port refunds', status: 'doing' },
        { text: 'Drop the Charges code', status: 'todo' },
      ],
    });
    await alice.call('plan', {
      id: ids.plan,
      steps: [
        { text: 'Port checkout', status: 'done' },
        { text: 'Port refunds', status: 'doing' },
        { text: 'Drop the Charges code', status: 'todo' },
        { text: 'Make payment_intent_id NOT NULL', status: 'todo' },
      ],
    });
    await write(bob, 'failure', 'observe', {
      content: 'Checkout crashed with a deadlock in reserveSlots under load',
      source: 'pagerduty',
      tags: ['incident'],
    });
    await write(bob, 'bobNote', 'note', { content: 'Always squash before merging, bob thinks' });
    await write(alice, 'orgWide', 'remember', { content: 'Every repo must pin Node 22.', scope: 'org' });
    const other = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: '/srv/other' });
    await write(other, 'elsewhere', 'remember', { content: 'Never deploy the other repo on Fridays.' });
    await other.close();
  });
  afterAll(async () => {
    await alice?.close();
    await bob?.close();
    await t?.close();
  });

  const brief = async (s: McpSession, args: Record<string, unknown> = {}) => {
    const r = await s.call('space', { view: 'brief', ...args });
    expect(r.isError, r.text).toBe(false);
    return { text: r.text, brief: r.structured.brief as BriefOut };
  };
  const handle = (id: string | undefined) => (id as string).slice(-8);
  const shown = (b: BriefOut) => Object.fromEntries(b.sections.map((s) => [s.section, s.items.map((i) => i.id)]));

  it('briefs the project: current decisions with why, conventions, the plan with open steps, failures', async () => {
    const { text, brief: b } = await brief(alice);
    expect(shown(b)).toEqual({
      plans: [ids.plan],
      decisions: [ids.decision],
      conventions: [ids.convention, ids.orgWide],
      failures: [ids.failure],
    });
    expect(text).toMatch(/^Brief for project \/srv\/shop \(with org-wide entries\): 5 entries\./);
    // each entry by its handle, the last 8 hex digits of its id, which the tools take in its place
    expect(text).toContain(
      `Use Kysely for database access Why: slot reservation needs row locks (bob, id ${handle(ids.decision)})`,
    );
    expect(text).toContain(
      `[active, 1/4 done] Next: #1 (doing) Port refunds; #2 Drop the Charges code; #3 Make payment_intent_id NOT NULL. (plan id ${handle(ids.plan)})`,
    );
    expect(text).toContain(`Every repo must pin Node 22. (alice, id ${handle(ids.orgWide)}) [org-wide]`);
    expect(text).toContain(`crashed with a deadlock in reserveSlots under load (bob, id ${handle(ids.failure)})`);
    expect(text).not.toContain(ids.plan);
    expect(text).not.toContain('Prisma');
    expect(text).not.toContain('squash');
    expect(text).not.toContain('Fridays');
    expect(b).toMatchObject({ budget_chars: 4000, chars: text.length, left_out: 0 });
    // the same memory gives the same brief
    expect((await brief(alice)).text).toBe(text);
  });

  it('gives each item its author, when it was written (a plan: last updated) and its anchors, held or not', async () => {
    const a = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: '/srv/anchored' });
    const b = await connect('v2', t.mcpUrl, { key, agent: 'bob', project: '/srv/anchored' });
    const rule = entryId(
      await a.call('remember', {
        content: 'Never log card numbers',
        tags: ['rule'],
        paths: ['src/payments/', 'src/log.ts'],
        commit: 'ab12cd34',
      }),
    );
    const plan = entryId(
      await a.call('plan', { title: 'Ship the cart', steps: [{ text: 'Build it', status: 'todo' }] }),
    );
    await b.call('plan', { id: plan, claim_step: 0 });
    const history = async (id: string) =>
      ((await a.call('space', { view: 'history', entry_id: id })).structured.history as HistoryOut).entry;
    const items = async () => (await brief(a)).brief.sections.flatMap((s) => s.items);
    for (const got of [await items(), await items()]) {
      expect(got.find((i) => i.id === rule)).toMatchObject({
        agent: 'alice',
        at: (await history(rule)).created_at,
        paths: ['src/payments', 'src/log.ts'],
        commit: 'ab12cd34',
      });
      const p = got.find((i) => i.id === plan);
      expect(p).toMatchObject({ agent: 'alice', at: (await history(plan)).updated_at, paths: null, commit: null });
      expect(p?.at).not.toBe((await history(plan)).created_at);
    }
    await a.close();
    await b.close();
  });

  it('shows each change since the last brief of a project, though the server holds its candidates', async () => {
    const project = '/srv/held';
    const a = await connect('v2', t.mcpUrl, { key, agent: 'alice', project });
    const b = await connect('v2', t.mcpUrl, { key, agent: 'bob', project });
    const plan = entryId(
      await a.call('plan', {
        title: 'Ship the cart',
        steps: [
          { text: 'Build it', status: 'doing' },
          { text: 'Test it', status: 'todo' },
        ],
      }),
    );
    const decision = entryId(await a.call('decide', { content: 'Use Redis for the cart', rationale: 'speed' }));
    const rule = entryId(await a.call('remember', { content: 'Never keep card numbers in the cart', tags: ['rule'] }));
    const first = (await brief(a)).text;
    expect(first).toContain('Ship the cart [active, 0/2 done] Next: #0 (doing) Build it; #1 Test it.');
    expect(first).toContain(`Use Redis for the cart Why: speed (alice, id ${handle(decision)})`);
    expect(first).toContain(`Never keep card numbers in the cart (alice, id ${handle(rule)})`);
    expect((await brief(a)).text).toBe(first);
    // a plan changed in place, a decision superseded, a rule forgotten, and a note of bob's own
    const steps = [
      { text: 'Build it', status: 'done' },
      { text: 'Test it', status: 'doing' },
    ];
    expect((await a.call('plan', { id: plan, steps })).isError).toBe(false);
    expect(
      (await b.call('decide', { content: 'Use Postgres for the cart', rationale: 'one store', supersedes: decision }))
        .isError,
    ).toBe(false);
    expect((await a.call('forget', { id: rule, reason: 'moved to the wiki' })).isError).toBe(false);
    expect((await b.call('note', { content: 'Always run the cart tests twice' })).isError).toBe(false);
    const after = (await brief(a)).text;
    expect(after).toContain('Ship the cart [active, 1/2 done] Next: #1 (doing) Test it.');
    expect(after).toContain('Use Postgres for the cart Why: one store (bob, id ');
    for (const gone of ['Redis', 'card numbers', 'twice']) expect(after).not.toContain(gone);
    expect((await brief(b)).text).toContain('Always run the cart tests twice (bob, id ');
    expect((await brief(a)).text).toBe(after);
    await a.close();
    await b.close();
  });

  it('leaves out a failure once its fix is recorded: superseded by it, or a later fix on its files, observed or remembered', async () => {
    const project = '/srv/orders';
    const a = await connect('v2', t.mcpUrl, { key, agent: 'alice', project });
    const b = await connect('v2', t.mcpUrl, { key, agent: 'bob', project });
    try {
      const ci = entryId(
        await a.call('observe', {
          content: 'CI failed on main: float rounding in applyDiscount',
          paths: ['src/orders/service.ts'],
        }),
      );
      const crash = entryId(await a.call('observe', { content: 'Checkout crashed with a deadlock in reserveSlots' }));
      const timeout = entryId(
        await a.call('observe', { content: 'The export job timed out on large orgs', paths: ['src/export/'] }),
      );
      const flash = entryId(
        await a.call('observe', {
          content: "Release build failed: region 'FLASH' overflowed by 3412 bytes",
          paths: ['app/prj.conf'],
        }),
      );
      const failures = async () =>
        (await brief(a)).brief.sections.find((x) => x.section === 'failures')?.items.map((i) => i.id) ?? [];
      expect((await failures()).sort()).toEqual([ci, crash, timeout, flash].sort());
      // a fix remembered on the failure's folder says it is fixed; a memory there that says
      // nothing of a fix settles nothing
      await b.call('remember', {
        content: 'Flash overflow fixed: debug-only options moved to overlay-debug.conf',
        paths: ['app/'],
      });
      await b.call('remember', { content: 'The export job writes batches of 500 rows', paths: ['src/export/'] });
      // nor one that says "fixed" of something else
      await b.call('remember', { content: 'The export retries after a fixed 2 s delay', paths: ['src/export/'] });
      // a fix decided on the failure's file; another agent's private fix settles nothing it does not show
      const teardown = entryId(
        await a.call('observe', {
          content: 'Teardown failed: the db file is still in use',
          paths: ['tests/conftest.py'],
        }),
      );
      const vault = entryId(
        await a.call('observe', { content: 'Vault unseal failed after the upgrade', paths: ['ops/vault/'] }),
      );
      await b.call('decide', {
        content: 'Fix for the teardown failures: fixtures close every connection they hand out',
        rationale: 'Windows keeps the file locked while a connection is open',
        paths: ['tests/'],
      });
      const carol = await connect('v2', t.mcpUrl, { key, agent: 'carol', project });
      await carol.call('remember', {
        content: 'Vault unseal fixed: raft snapshot restored',
        paths: ['ops/vault/'],
        scope: 'agent',
      });
      await carol.close();
      // a fix observed on the same file says it is fixed; one on another file settles nothing
      await b.call('observe', {
        content: 'Fixed: applyDiscount uses integer cents; CI green',
        paths: ['src/orders/'],
      });
      await b.call('observe', { content: 'Fixed the flaky login test', paths: ['src/auth/login.ts'] });
      // a fix that supersedes the failure it fixed
      await b.call('observe', { content: 'reserveSlots takes its locks in id order now', supersedes: crash });
      const left = await failures();
      expect(left).toContain(timeout);
      expect(left).toContain(vault);
      expect(left).not.toContain(ci);
      expect(left).not.toContain(crash);
      expect(left).not.toContain(flash);
      expect(left).not.toContain(teardown);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('leaves out a failure written with its fix, or fixed by a later entry, a decision or a change naming a rare identifier of it, in any project; not by a name many hold', async () => {
    const project = '/srv/permits';
    const a = await connect('v2', t.mcpUrl, { key, agent: 'alice', project });
    const b = await connect('v2', t.mcpUrl, { key, agent: 'bob', project });
    try {
      const observe = async (content: string) => entryId(await a.call('observe', { content }));
      const formatted = await observe(
        'CI on PR #940 failed on the prettier check (2 files); fixed with `pnpm format`.',
      );
      const pinned = await observe(
        'test_polars_roundtrip failed: a polars 1.9 regression; pinned polars<1.10 until it is fixed upstream.',
      );
      const lockLost = await observe(
        'Bursts of `ServiceBusException: The lock supplied is invalid (MessageLockLost)` from DocumentRenderedHandler.',
      );
      // the service's name is on many entries: it names no one failure
      for (const n of [1, 2, 3]) await b.call('remember', { content: `orders-api note ${n}: ports and env vars` });
      const slow = await observe('orders-api timed out on GET /v1/cart during the rush.');
      const esm = await observe('orders-api crashed on boot: `Error [ERR_REQUIRE_ESM]: require() of ES Module`.');
      const wheels = await observe('Wheel build broke on the manylinux2014 images: no std::bit_cast in GCC 10.');
      const oom = await observe('inventory-sync failed two nights in a row: OOMKilled at its memory limit.');
      const coupon = await observe('Coupon welkom10 failed with COUPON_NOT_FOUND: the lookup is case-sensitive.');
      const failures = async () =>
        (await brief(a)).brief.sections.find((x) => x.section === 'failures')?.items.map((i) => i.id) ?? [];
      expect(await failures()).not.toContain(formatted);
      expect(await failures()).toEqual(expect.arrayContaining([pinned, lockLost, slow, esm, wheels, oom, coupon]));
      // fixes without anchors: one names the failure's rare identifier, one only the service
      await b.call('remember', {
        content:
          'MessageLockLost fix: PrefetchCount = 0, MaxAutoLockRenewalDuration = 5 min; the handler is idempotent.',
      });
      await b.call('remember', { content: 'Fixed the orders-api image tag in the Helm chart.' });
      // the fix of a shared library, written in its own project, begins with "Fixed"
      await b.call('remember', {
        content: 'Fixed ERR_REQUIRE_ESM by publishing both builds of the library.',
        project: '/srv/shared-lib',
      });
      // a decision that names it, whatever its words: the change of course taken on it
      await b.call('decide', {
        content: 'Build Linux wheels on manylinux_2_28 instead of manylinux2014.',
        rationale: 'GCC 13 has std::bit_cast',
      });
      // a memory of a change made that names it; not one that only names it
      await b.call('remember', { content: 'inventory-sync now streams the CSV in batches; peak RSS 180 MB.' });
      await b.call('remember', { content: 'Coupon codes: COUPON_NOT_FOUND is what an unknown code returns.' });
      const left = await failures();
      expect(left).not.toContain(lockLost);
      expect(left).not.toContain(esm);
      expect(left).not.toContain(wheels);
      expect(left).not.toContain(oom);
      expect(left).toContain(coupon);
      expect(left).toContain(slow);
      expect(left).toContain(pinned);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('lists as failures what failed, not reports of what went well nor numbers that are no status', async () => {
    const a = await connect('v2', t.mcpUrl, { key, agent: 'alice', project: '/srv/fleet' });
    try {
      const observe = async (content: string) => entryId(await a.call('observe', { content }));
      const failed = [
        await observe('Webhook endpoint of fleet 212 disabled after 24 h of 503s.'),
        await observe('Trackers on one carrier drop with `reason: keepalive_timeout` every 5 min.'),
        await observe('card-gateway pods restart: `java.lang.OutOfMemoryError: Java heap space`.'),
        await observe('The sandbox returned `429 Too Many Requests` at 600 rps.'),
        await observe('Authorization p99 regressed to 280 ms at 1,500 auth/s.'),
        await observe('Upgrade to 3.0 failed at startup.'),
        await observe('Checkout: the green button fails to submit.'),
        await observe('CI passing on main but the nightly e2e run failed.'),
      ];
      for (const report of [
        'Load test against staging: p99 132 ms, 0 errors.',
        'Pre-launch report: no crashes on 12 test devices.',
        'Crash-free users 99.71% on 1.19.0.',
        'Utilization report with a 500-truck fleet: 1.9 s.',
        'Nightly job peak memory 512 MiB.',
        'Downstream matrix: 512 tests green.',
        'OSS-Fuzz: fuzz_sql_parser ran 3.1B executions this week, no new crashes.',
        'Monthly node rotation: PDBs held, no 5xx during the drain.',
        'CI green on main at e11b3d2 - unit 221 passed, Playwright 58 passed (1 flaky: search.spec.ts retried once).',
        'booking-service CI #1841 on main green: 612 unit tests, spotlessCheck and Error Prone clean.',
      ])
        await observe(report);
      const failures = (await brief(a)).brief.sections.find((x) => x.section === 'failures')?.items.map((i) => i.id);
      expect(failures?.sort()).toEqual(failed.sort());
    } finally {
      await a.close();
    }
  });

  it('lists a memory or decision a newer one of its kind on its files may contradict under May be stale', async () => {
    const project = '/srv/money';
    const a = await connect('v2', t.mcpUrl, { key, agent: 'alice', project });
    const b = await connect('v2', t.mcpUrl, { key, agent: 'bob', project });
    try {
      const old = entryId(
        await a.call('decide', {
          content: 'Money is stored as float dollars',
          rationale: 'simple',
          paths: ['src/orders/service.ts'],
        }),
      );
      const first = await brief(a);
      expect(shown(first.brief).decisions).toEqual([old]);
      expect(first.text).not.toContain('May be stale');
      // an observation on the file contradicts no decision; a newer decision on its folder may
      await b.call('observe', { content: 'Orders tests pass', paths: ['src/orders/service.ts'] });
      const newer = entryId(
        await b.call('decide', { content: 'Money is integer cents', rationale: 'no rounding', paths: ['src/orders/'] }),
      );
      // the same caller again: the server held the old decision, and still learns of its mark
      const second = await brief(a);
      expect(shown(second.brief)).toMatchObject({ decisions: [newer], stale: [old] });
      expect(second.text).toMatch(
        new RegExp(
          `May be stale:\\n- Money is stored as float dollars \\(alice, id ${handle(old)}\\); a newer decision on src/orders/service\\.ts: "Money is integer cents" \\(bob, \\d{4}-\\d\\d-\\d\\d\\)`,
        ),
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  it("shows the caller's own notes and no one else's", async () => {
    const b = shown((await brief(bob)).brief);
    expect(b.conventions).toContain(ids.bobNote);
  });

  it('fits any budget, saying how much was left out', async () => {
    for (const budget of [500, 700, 1000]) {
      const { text, brief: b } = await brief(alice, { budget_chars: budget });
      expect(text.length).toBeLessThanOrEqual(budget);
      expect(b.budget_chars).toBe(budget);
      if (b.left_out) expect(text).toContain(`${b.left_out} more left out: recall finds them.`);
    }
  });

  it('keeps the notice of an unrecognised project within the budget', async () => {
    const { text } = await brief(alice, { project: 'team-x', budget_chars: 600 });
    expect(text.length).toBeLessThanOrEqual(600);
    expect(text).toContain('Note: The project identifier is not a git remote URL or an absolute path');
  });

  it('refuses a budget it cannot keep, naming the field', async () => {
    const r = await alice.call('space', { view: 'brief', budget_chars: 100 });
    expect(r.isError).toBe(true);
    expect(r.text).toMatch(/^Invalid arguments, nothing was done; fix and call again: budget_chars: /);
  });

  it('tells one entry’s story: versions, the supersede chain both ways, ledger events', async () => {
    for (const which of ['oldDecision', 'decision'] as const) {
      const r = await alice.call('space', { view: 'history', entry_id: ids[which] });
      expect(r.isError, r.text).toBe(false);
      const h = r.structured.history as HistoryOut;
      expect(h.entry.id).toBe(ids[which]);
      expect(h.chain.map((c) => c.id)).toEqual([ids.oldDecision, ids.decision]);
      expect(h.events.map((e) => [e.op, e.entry_id])).toEqual([
        ['decide', ids.oldDecision],
        ['decide', ids.decision],
      ]);
      expect(r.text).toContain(`History of decision ${ids[which]}`);
      expect(r.text).toMatch(/Supersede chain, oldest first:\n1\. \[decision, superseded\] Use Prisma/);
      expect(r.text).toContain('2. [decision, current] Use Kysely');
      // every id once
      for (const id of [ids.oldDecision, ids.decision]) expect(r.text.split(id as string)).toHaveLength(2);
    }
    const plan = (await alice.call('space', { view: 'history', entry_id: ids.plan })).structured.history as HistoryOut;
    expect(plan.versions.map((v) => [v.version, v.op, v.agent])).toEqual([
      [1, 'plan.create', 'alice'],
      [2, 'plan.update', 'alice'],
    ]);
    expect(plan.chain.map((c) => c.id)).toEqual([ids.plan]);
  });

  it("needs entry_id, and reveals nothing of another agent's private entry", async () => {
    const missing = await alice.call('space', { view: 'history' });
    expect(missing.isError).toBe(true);
    expect(missing.text).toMatch(/entry_id: is required for view history/);
    const hidden = await alice.call('space', { view: 'history', entry_id: ids.bobNote });
    expect(hidden.isError).toBe(true);
    expect(hidden.text).not.toContain('squash');
    expect(hidden.text).toMatch(/not found/);
    expect((await bob.call('space', { view: 'history', entry_id: ids.bobNote })).isError).toBe(false);
  });
});
