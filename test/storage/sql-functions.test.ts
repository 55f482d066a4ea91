/**
 * The SQL functions that scope, rank and meter, called directly: each test runs inside a
 * transaction that is rolled back, on PGlite and on the Postgres server. (The tools' behaviour
 * over MCP is tested in test/e2e; these pin the rules themselves, fast.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/domain/ids';
import { migrate } from '../../src/storage/pg/migrate';
import { callTool, inTransaction, RAW_KINDS, type RawDb, raised, rawDatabase, TEST_KEY_HASH } from '../helpers/raw-db';

const PROJECT = 'github.com/acme/widgets';

describe.each(RAW_KINDS)('SQL functions on %s', (kind) => {
  let db: RawDb;
  const one = async (sql: string, params: unknown[] = []) => (await db.query(sql, params))[0]?.r;

  const inTx = (body: (org: string) => Promise<void>) => inTransaction(db, body);
  const raisedBy = (sql: string) => raised(db, sql);

  const write = (agent: string, args: Record<string, unknown>) =>
    callTool<{ entry: { id: string } }>(db, 'cairn_write', agent, PROJECT, {
      kind: 'memory',
      op: 'remember',
      id: uuidv7(),
      ...args,
    });

  const recall = async (agent: string, args: Record<string, unknown>) =>
    (await callTool<{ hits: { id: string; score: number }[] }>(db, 'cairn_recall', agent, PROJECT, args)).hits;

  beforeAll(async () => {
    db = await rawDatabase(kind);
    await migrate(db);
  });
  afterAll(() => db?.close());

  it('gives a text of whitespace alone a search vector (its kind), never NULL', async () => {
    for (const content of ['\r\n', ' ', '\t\u00a0\n']) {
      expect(
        await one(`SELECT cairn_entry_vector('observation', NULL, $1, NULL, NULL, '{}')::text AS r`, [content]),
      ).toBe("'observ':1");
    }
  });

  describe('cairn_in_scope', () => {
    // [entry scope, entry project, entry agent] read by agent "me" in project P
    const entries = {
      org: ['org', null, 'other'],
      projectP: ['project', 'P', 'other'],
      projectQ: ['project', 'Q', 'other'],
      mineP: ['agent', 'P', 'me'],
      mineQ: ['agent', 'Q', 'me'],
      mineNoProject: ['agent', null, 'me'],
      theirsP: ['agent', 'P', 'other'],
    } as const;
    const cases: [readScope: string, readProject: string | null, visible: (keyof typeof entries)[]][] = [
      ['project', 'P', ['org', 'projectP', 'mineP', 'mineNoProject']],
      ['org', 'P', ['org', 'projectP', 'projectQ', 'mineP', 'mineQ', 'mineNoProject']],
      ['org', null, ['org', 'projectP', 'projectQ', 'mineP', 'mineQ', 'mineNoProject']],
      ['agent', 'P', ['mineP', 'mineNoProject']],
      ['agent', null, ['mineP', 'mineQ', 'mineNoProject']],
    ];
    it.each(cases)('a %s read in project %s sees exactly its entries', async (scope, project, visible) => {
      await inTx(async () => {
        const seen: string[] = [];
        for (const [name, [eScope, eProject, eAgent]] of Object.entries(entries)) {
          const r = await one('SELECT cairn_in_scope($1, $2, $3, $4, $5, $6) AS r', [
            eScope,
            eProject,
            eAgent,
            scope,
            project,
            'me',
          ]);
          if (r) seen.push(name);
        }
        expect(seen.sort()).toEqual([...visible].sort());
      });
    });
  });

  describe('recall scoring', () => {
    it("cairn_recall_score is BM25 (k1 0.5, b 0.15, a term's frequency a third of its positions outside the lead, a concept once by its best term, length in distinct lexemes) plus 4 per identifier named", async () => {
      await inTx(async (org) => {
        const { entry } = await write('me', { content: 'deploy deploy the widgets with scripts/deploy.sh' });
        const row = (
          await db.query(
            `SELECT e.search::text AS search, length(e.search) AS n,
               cairn_recall_score($1, e.id, e.project_key, e.search,
                 ARRAY['deploy'::tsquery, 'widget'::tsquery, 'script'::tsquery, 'absent'::tsquery],
                 ARRAY[1.5, 0.5, 0.3, 9.0]::float8[], ARRAY[1, 2, 2, 3], $3::text[], 4.0) AS score
             FROM entries e WHERE e.id = $2`,
            [org, entry.id, ['#scripts/deploy.sh', '#elsewhere.ts']],
          )
        )[0] as { search: string; n: number; score: number };
        // the text is read three ways (cairn_search_vector), its lead once more at weight A: the
        // words "deploy deploy" give six positions outside the lead, the path's part two more (one
        // reading keeps the path whole), a frequency of 8/3; "widgets" once, three positions
        const outsideLead = (lexeme: string) =>
          (new RegExp(`'${lexeme}':(\\S+)`).exec(row.search)?.[1] ?? '').split(',').filter((p) => !p.endsWith('A'))
            .length;
        expect(outsideLead('deploy')).toBe(8);
        expect(outsideLead('widget')).toBe(3);
        const norm = 0.5 * (0.85 + (0.15 * row.n) / 4.0);
        const term = (idf: number, tf: number) => (idf * tf * 1.5) / (tf + norm);
        // widget and script stand for one concept: it counts its best, widget's, not both
        const bm25 = term(1.5, 8 / 3) + term(0.5, 1);
        expect(row.score).toBeCloseTo(bm25 + 4, 9);
      });
    });

    it('ranks the rarer term first, boosts a named identifier, and never shows another agent’s private entry', async () => {
      await inTx(async () => {
        for (let i = 0; i < 6; i++) await write('a', { content: `the cache is warm on node ${i}` });
        const rare = await write('a', { content: 'the cache eviction policy is lru' });
        const named = await write('a', { content: 'cache settings live in src/cache/config.ts' });
        const secret = await write('b', { content: 'cache eviction secret', scope: 'agent' });
        const hits = await recall('a', { query: 'cache eviction src/cache/config.ts' });
        const ids = hits.map((h) => h.id);
        expect(ids.slice(0, 2).sort()).toEqual([rare.entry.id, named.entry.id].sort());
        expect(ids).not.toContain(secret.entry.id);
        expect((await recall('b', { query: 'eviction' })).map((h) => h.id)).toContain(secret.entry.id);
        const scores = hits.map((h) => h.score);
        expect(scores).toEqual([...scores].sort((x, y) => y - x));
      });
    });

    it('walks a thread of work in the order the service took the writes, not the order their transactions started', async () => {
      await inTx(async (org) => {
        const standup = await write('a', { content: 'when does standup start now?' });
        const lunch = await write('a', { content: 'ten sharp, from Monday on' });
        const other = [
          await write('b', { content: 'rotated the staging keys' }),
          await write('b', { content: 'bumped eslint' }),
        ];
        // a's second write, the reply, was sent with b's and its transaction started last: by
        // created_at, b's two writes would stand between a's and end the thread
        const order = [standup, ...other, lunch].map((w) => w.entry.id);
        await db.query(
          `UPDATE entries SET created_at = now() - make_interval(secs => 10 - array_position($2::uuid[], id))
           WHERE org_id = $1 AND id = ANY($2::uuid[])`,
          [org, order],
        );
        expect((await recall('a', { query: 'standup' })).map((h) => h.id)).toEqual([standup.entry.id, lunch.entry.id]);
      });
    });

    it('leaves out superseded and expired entries unless asked', async () => {
      await inTx(async () => {
        const old = await write('a', { content: 'the build uses webpack' });
        const current = await write('a', { content: 'the build uses vite', supersedes: old.entry.id });
        await write('a', { content: 'the build uses gulp', ttl_seconds: -1 });
        expect((await recall('a', { query: 'build' })).map((h) => h.id)).toEqual([current.entry.id]);
        const all = await recall('a', { query: 'build', include_superseded: true });
        expect(all.map((h) => h.id).sort()).toEqual([old.entry.id, current.entry.id].sort());
      });
    });
  });

  describe('cairn_brief', () => {
    const brief = async (agent: string, per = 40) =>
      (
        await callTool<{ candidates: [section: string, id: string, ...rest: unknown[]][] }>(
          db,
          'cairn_space',
          agent,
          PROJECT,
          { view: 'brief', per_kind: per },
        )
      ).candidates.map(([section, id]) => [section, id]);
    const plan = (agent: string, args: Record<string, unknown>) =>
      callTool<{ entry: { id: string } }>(db, 'cairn_plan', agent, PROJECT, {
        id: uuidv7(),
        update: false,
        status: 'active',
        allowed_from: [],
        final: ['done', 'abandoned'],
        steps: [{ text: 'step', status: 'todo' }],
        ...args,
      });

    it('reads current plans, decisions, rule-like memories and notes, and recent failures; an untouched plan is stale', async () => {
      await inTx(async (org) => {
        const active = await plan('a', { title: 'ship the cart' });
        const stale = await plan('a', { title: 'upgrade search' });
        const done = await plan('a', { title: 'finished', status: 'done' });
        const d1 = await write('a', { kind: 'decision', op: 'decide', content: 'use kysely', rationale: 'locks' });
        const d2 = await write('a', {
          kind: 'decision',
          op: 'decide',
          content: 'use kysely everywhere',
          rationale: 'locks',
          supersedes: d1.entry.id,
        });
        const rule = await write('a', { content: 'never rename a column in one release' });
        const tagged = await write('a', { content: 'migrations live in src/db', tags: ['conventions'] });
        const plain = await write('a', { content: 'the api listens on port 4000' });
        const mine = await write('a', { kind: 'note', op: 'note', content: 'always rebase', scope: 'agent' });
        const theirs = await write('b', { kind: 'note', op: 'note', content: 'always squash', scope: 'agent' });
        const crash = await write('a', { kind: 'observation', op: 'observe', content: 'checkout crashed' });
        const old = await write('a', { kind: 'observation', op: 'observe', content: 'checkout failed long ago' });
        const calm = await write('a', { kind: 'observation', op: 'observe', content: 'p95 is 60 ms' });
        await db.query(`UPDATE entries SET updated_at = now() - interval '15 days' WHERE org_id = $1 AND id = $2`, [
          org,
          stale.entry.id,
        ]);
        await db.query(`UPDATE entries SET created_at = now() - interval '31 days' WHERE org_id = $1 AND id = $2`, [
          org,
          old.entry.id,
        ]);
        const got = await brief('a');
        expect(got).toEqual(
          expect.arrayContaining([
            ['plans', active.entry.id],
            ['stale', stale.entry.id],
            ['decisions', d2.entry.id],
            ['conventions', rule.entry.id],
            ['conventions', tagged.entry.id],
            ['conventions', mine.entry.id],
            ['failures', crash.entry.id],
          ]),
        );
        const ids = got.map(([, id]) => id);
        for (const out of [done, d1, plain, theirs, old, calm]) expect(ids).not.toContain(out.entry.id);
        expect(got).toHaveLength(7);
        // at most per_kind of each kind (memories, notes), the newest
        expect((await brief('a', 1)).filter(([s]) => s === 'conventions')).toEqual([
          ['conventions', tagged.entry.id],
          ['conventions', mine.entry.id],
        ]);
      });
    });

    it('sends a candidate the caller holds at its row version as its section and id alone', async () => {
      await inTx(async () => {
        await plan('a', { title: 'ship the cart' });
        const d = await write('a', { kind: 'decision', op: 'decide', content: 'use kysely', rationale: 'locks' });
        await write('a', { content: 'never rename a column in one release' });
        const rows = async (known?: Record<string, string>) =>
          (
            await callTool<{ candidates: unknown[][] }>(db, 'cairn_space', 'a', PROJECT, {
              view: 'brief',
              per_kind: 40,
              ...(known ? { known } : {}),
            })
          ).candidates;
        const whole = await rows();
        expect(whole).toHaveLength(3);
        // the entry's fields, then its row's version, its stale mark, paths and commit (none here: no anchors)
        for (const r of whole) expect(r).toHaveLength(17);
        for (const r of whole) expect(r.slice(14)).toEqual([null, null, null]);
        const [version] = await db.query(`SELECT xmin || ' ' || updated_at AS v FROM entries WHERE id = $1`, [
          d.entry.id,
        ]);
        expect(whole.find((r) => r[1] === d.entry.id)?.[13]).toBe(version?.v);
        const held = Object.fromEntries(whole.map((r) => [r[1] as string, r[13] as string]));
        expect(await rows(held)).toEqual(whole.map((r) => r.slice(0, 2)));
        // held at another version (the row changed since): sent whole
        const stale = await rows({ ...held, [d.entry.id]: `${held[d.entry.id]}0` });
        expect(stale).toEqual(whole.map((r) => (r[1] === d.entry.id ? r : r.slice(0, 2))));
      });
    });
  });

  describe('space counts', () => {
    // what space reported before counts were kept: every entry and artifact read and counted
    const recount = async (org: string, agent: string, scope: string, project: string | null) =>
      (
        await db.query(
          `SELECT jsonb_build_object(
             'counts', (SELECT coalesce(jsonb_object_agg(k.kind, k.n), '{}'::jsonb) FROM (
               SELECT e.kind, count(*) AS n FROM entries e
               WHERE e.org_id = $1 AND cairn_in_scope(e.scope, e.project, e.agent, $3, $4, $2)
                 AND (e.expires_at IS NULL OR e.expires_at > now()) GROUP BY e.kind) k),
             'artifacts', (SELECT jsonb_build_object('count', count(*), 'bytes', coalesce(sum(a.size), 0))
               FROM artifacts a WHERE a.org_id = $1 AND cairn_in_scope(a.scope, a.project, a.agent, $3, $4, $2)),
             'projects', (SELECT coalesce(jsonb_agg(jsonb_build_object('project', p.canonical, 'created_at', p.created_at,
               'entries', (SELECT count(*) FROM entries e WHERE e.org_id = $1 AND e.project = p.canonical
                 AND cairn_in_scope(e.scope, e.project, e.agent, 'org', NULL, $2)
                 AND (e.expires_at IS NULL OR e.expires_at > now()))) ORDER BY p.canonical), '[]'::jsonb)
               FROM projects p WHERE p.org_id = $1
                 -- a project only another agent's private entries are in is not the reader's to see
                 AND (EXISTS (SELECT 1 FROM entries e WHERE e.org_id = $1 AND e.project = p.canonical
                        AND cairn_in_scope(e.scope, e.project, e.agent, 'org', NULL, $2))
                   OR EXISTS (SELECT 1 FROM artifacts a WHERE a.org_id = $1 AND a.project = p.canonical
                        AND cairn_in_scope(a.scope, a.project, a.agent, 'org', NULL, $2)))),
             'agents', (SELECT coalesce(jsonb_agg(jsonb_build_object('agent', a.agent, 'events', a.n,
               'first_at', a.first_at, 'last_at', a.last_at) ORDER BY a.last_at DESC), '[]'::jsonb)
               FROM (SELECT agent, count(*) AS n, min(at) AS first_at, max(at) AS last_at
                 FROM ledger WHERE org_id = $1 AND (NOT private OR agent = $2) AND actor_kind = 'agent'
                 GROUP BY agent) a)) AS r`,
          [org, agent, scope, project],
        )
      )[0]?.r as Record<string, unknown>;

    it('are what reading every row would count, through writes, private rows, artifacts, expiry and forget', async () => {
      await inTx(async (org) => {
        const other = 'github.com/acme/other';
        const ids: string[] = [];
        for (let i = 0; i < 24; i++) {
          const agent = ['a', 'b', 'c'][i % 3] as string;
          const [kind, op] = [
            ['memory', 'remember'],
            ['observation', 'observe'],
            ['decision', 'decide'],
            ['note', 'note'],
          ][i % 4] as [string, string];
          const args = {
            kind,
            op,
            id: uuidv7(),
            content: `entry ${i}`,
            rationale: 'why',
            scope: (['org', 'project', 'agent'] as const)[i % 3],
            ...(i % 5 === 0 ? { ttl_seconds: -1 } : {}),
          };
          const r = await callTool<{ entry: { id: string } }>(db, 'cairn_write', agent, i % 2 ? PROJECT : other, args);
          ids.push(r.entry.id);
        }
        for (const [i, agent] of ['a', 'b'].entries()) {
          const artifact = {
            id: uuidv7(),
            org_id: org,
            name: `r${i}.txt`,
            content_type: 'text/plain',
            size: 100 + i,
            sha256: 'x',
            blob_key: `k${i}`,
            scope: i ? 'agent' : 'project',
          };
          ids.push(
            (await callTool<{ artifact: { id: string } }>(db, 'cairn_artifact_put', agent, PROJECT, artifact)).artifact
              .id,
          );
        }
        await callTool(db, 'cairn_forget', 'a', PROJECT, { ids: [ids[0], ids[3], ids[24]] });
        for (const agent of ['a', 'b', 'c']) {
          for (const [scope, project] of [
            ['project', PROJECT],
            ['org', PROJECT],
            ['org', null],
            ['agent', PROJECT],
            ['agent', null],
          ] as const) {
            const space = await callTool<Record<string, unknown>>(db, 'cairn_space', agent, project, {
              view: 'overview',
              scope,
            });
            const want = await recount(org, agent, space.scope as string, space.project as string | null);
            expect({ counts: space.counts, artifacts: space.artifacts }).toEqual({
              counts: want.counts,
              artifacts: want.artifacts,
            });
          }
          const projects = await callTool<{ projects: unknown }>(db, 'cairn_space', agent, null, { view: 'projects' });
          expect(projects.projects).toEqual((await recount(org, agent, 'org', null)).projects);
        }
        const agents = await callTool<{ agents: unknown }>(db, 'cairn_space', 'a', null, { view: 'agents' });
        expect(agents.agents).toEqual((await recount(org, 'a', 'org', null)).agents);
      });
    });
  });

  it('runs no SQL-language function as a call on any tool path: each one is inlined into its caller', async () => {
    // a SQL function the planner cannot inline is parsed and planned again in every transaction
    // that calls it (docs/design.md, "The data layer as source"): those are written in PL/pgSQL.
    // Generic plans, as a session's statements settle on: a custom plan folds a call whose
    // arguments it knows by making it once while planning, which counts as a call here
    await inTx(async (org) => {
      await db.exec(`SET LOCAL track_functions = 'all'; SET LOCAL plan_cache_mode = 'force_generic_plan'`);
      // each call as the store sends it (src/storage/pg/store.ts): the operation metered around its function
      const tool = (op: string, agent: string, args: Record<string, unknown>) =>
        callTool<{ entry: { id: string } }>(db, `cairn_${op}`, agent, PROJECT, args, op);
      const id = (r: { entry: { id: string } }) => r.entry.id;
      const first = id(
        await tool('write', 'a', {
          kind: 'decision',
          op: 'decide',
          id: uuidv7(),
          content: 'checkout retries use idempotency keys',
          rationale: 'double charges',
          tags: ['payments'],
          paths: ['src/checkout/retry.ts'],
          metadata: { ticket: 7 },
        }),
      );
      await tool('write', 'a', {
        kind: 'decision',
        op: 'decide',
        id: uuidv7(),
        content: 'checkout retries use idempotency keys from the cart id',
        rationale: 'stable across tabs',
        supersedes: first,
        paths: ['src/checkout'],
      });
      const note = id(
        await tool('write', 'a', {
          kind: 'note',
          op: 'note',
          id: uuidv7(),
          content: 'look at retry.ts',
          scope: 'agent',
        }),
      );
      await tool('write', 'b', {
        kind: 'observation',
        op: 'observe',
        id: uuidv7(),
        content: 'checkout failed twice',
      });
      const plan = id(
        await tool('plan', 'a', {
          id: uuidv7(),
          update: false,
          title: 'ship retries',
          steps: [{ text: 'write it', status: 'todo' }],
          status: 'active',
          allowed_from: [],
          final: ['done', 'abandoned'],
        }),
      );
      await tool('plan', 'a', {
        id: plan,
        update: true,
        steps: [{ text: 'write it', status: 'done' }],
        allowed_from: [],
        final: ['done', 'abandoned'],
      });
      const artifact = uuidv7();
      await tool('artifact_put', 'a', {
        id: artifact,
        org_id: org,
        name: 'retry.md',
        content_type: 'text/markdown',
        size: 5,
        sha256: 'a'.repeat(64),
        blob_key: `${org}/${artifact}`,
      });
      await tool('artifact_get', 'a', { id: artifact });
      for (const args of [
        { query: 'checkout retry idempotency src/checkout/retry.ts' },
        { query: 'checkout', as_of: new Date(Date.now() + 60_000).toISOString(), include_superseded: true },
        { query: '' },
        { query: '', paths: ['src/checkout/retry.ts'] },
      ]) {
        await tool('recall', 'a', args);
      }
      for (const view of ['overview', 'projects', 'agents', 'ledger', 'brief']) {
        await tool('space', 'a', { view, per_kind: 20 });
      }
      await tool('space', 'a', { view: 'history', entry_id: plan });
      await tool('forget', 'a', { ids: [note] });
      const called = await db.query(
        `SELECT f.funcname, f.calls FROM pg_stat_xact_user_functions f JOIN pg_proc p ON p.oid = f.funcid
         JOIN pg_language l ON l.oid = p.prolang WHERE l.lanname = 'sql' ORDER BY 1`,
      );
      // the statistics are on: PL/pgSQL functions were counted
      expect(
        (
          await db.query(`SELECT count(*)::int AS n FROM pg_stat_xact_user_functions WHERE funcname = 'cairn_org_seal'`)
        )[0]?.n,
      ).toBe(1);
      expect(called).toEqual([]);
    });
  });

  describe('cairn_entry_ref', () => {
    /** An id of its own whose handle (last 8 hex digits) is that of `id`. */
    const twinOf = (id: string) => `${uuidv7().slice(0, -8)}${id.slice(-8)}`;
    const ref = (org: string, text: string, reader: string, missing: string | null = null) =>
      one(`SELECT cairn_entry_ref($1, $2, $3, 'supersedes', $4) AS r`, [org, text, reader, missing]);
    const refused = (org: string, text: string, reader: string) =>
      raised(db, `SELECT cairn_entry_ref($1, $2, $3, 'supersedes')`, [org, text, reader]);

    it('takes an id as it is, and a handle (any case) of an entry the reader may read', async () => {
      await inTx(async (org) => {
        const { entry } = await write('a', { content: 'deploys go out on tuesdays' });
        const handle = entry.id.slice(-8);
        expect(await ref(org, entry.id, 'b')).toBe(entry.id);
        expect(await ref(org, handle, 'b')).toBe(entry.id);
        expect(await ref(org, handle.toUpperCase(), 'b')).toBe(entry.id);
        // none: NULL, or not found as the caller words it
        const none = twinOf(uuidv7()).slice(-8);
        expect(await ref(org, none, 'a')).toBeNull();
        expect(await refused(org, none, 'a')).toBeUndefined();
        expect(
          await raised(db, `SELECT cairn_entry_ref($1, $2, 'a', 'supersedes', 'supersedes: entry')`, [org, none]),
        ).toMatchObject({ code: 'CN404', message: `supersedes: entry ${none} not found` });
      });
    });

    it("refuses a handle two readable entries share, naming both; another agent's private entry answers none and shares none", async () => {
      await inTx(async (org) => {
        const first = (await write('a', { content: 'retry webhooks three times' })).entry.id;
        const second = (await write('a', { content: 'log every webhook', id: twinOf(first) })).entry.id;
        const handle = first.slice(-8);
        expect(await refused(org, handle, 'a')).toEqual({
          code: 'CN422',
          message: `supersedes: handle ${handle} names 2 entries (${[first, second].sort().join(', ')}); pass the full id`,
          detail: undefined,
        });
        // through a tool: nothing written, nothing forgotten
        const replace = await raised(db, 'SELECT cairn_write($1, $2, $3, $4::jsonb)', [
          TEST_KEY_HASH,
          'a',
          PROJECT,
          JSON.stringify({ kind: 'memory', op: 'remember', id: uuidv7(), content: 'x', supersedes: handle }),
        ]);
        expect(replace?.message).toContain(`supersedes: handle ${handle} names 2 entries`);
        const forget = await raised(db, 'SELECT cairn_forget($1, $2, $3, $4::jsonb)', [
          TEST_KEY_HASH,
          'a',
          PROJECT,
          JSON.stringify({ ids: [handle], field: 'id' }),
        ]);
        expect(forget).toMatchObject({ code: 'CN422', message: expect.stringMatching(/^id: handle \w+ names 2/) });

        const shared = (await write('a', { content: 'webhook secrets rotate monthly' })).entry.id;
        const secret = (
          await write('b', { kind: 'note', op: 'note', content: 'b private twin', scope: 'agent', id: twinOf(shared) })
        ).entry.id;
        const h = shared.slice(-8);
        expect(await ref(org, h, 'a')).toBe(shared);
        expect((await refused(org, h, 'b'))?.code).toBe('CN422');
        // a private entry alone: not found to another agent, found by its author
        const alone = (await write('b', { kind: 'note', op: 'note', content: 'b private', scope: 'agent' })).entry.id;
        expect(await ref(org, alone.slice(-8), 'a')).toBeNull();
        expect(await ref(org, alone.slice(-8), 'b')).toBe(alone);
        const gone = await callTool<{ forgotten: string[]; not_found: string[] }>(db, 'cairn_forget', 'a', PROJECT, {
          ids: [alone.slice(-8), alone],
        });
        expect(gone.forgotten).toEqual([]);
        expect(gone.not_found.sort()).toEqual([alone, alone.slice(-8)].sort());
        expect(await ref(org, alone.slice(-8), 'b')).toBe(alone);
        expect(secret).not.toBe(shared);
      });
    });
  });

  describe('cairn_meter', () => {
    const meter = (op: string) => one(`SELECT cairn_meter($1, 7) AS r`, [op]);
    const setOrg = (org: string, key = '') =>
      db.query(`SELECT set_config('cairn.org', $1, true), set_config('cairn.key', $2, true)`, [org, key]);
    const plan = async (org: string, limits: Record<string, number>) => {
      await db.query(`SELECT cairn_admin_plan_put($1::jsonb)`, [JSON.stringify({ id: 'p', ...limits })]);
      await db.query(`SELECT cairn_admin_org_plan($1::uuid, 'p')`, [org]);
    };
    const usage = async (org: string) =>
      (await db.query('SELECT month_calls::int AS calls FROM org_usage WHERE org_id = $1', [org]))[0]?.calls;

    it('counts tool calls exactly up to the monthly quota, then refuses with the limit named', async () => {
      await inTx(async (org) => {
        await plan(org, { tool_calls_per_month: 2 });
        await setOrg(org);
        expect(await meter('write')).toBe(7); // passes its argument through
        expect(await meter('request')).toBe(7); // a request without a tool call is not a tool call
        expect(await meter('recall')).toBe(7);
        const refused = await raisedBy(`SELECT cairn_meter('write', 7)`);
        expect(refused?.code).toBe('CN429');
        expect(refused?.detail).toMatchObject({ limit: 'tool_calls_per_month', plan: 'p', value: 2, used: 2 });
        expect(await usage(org)).toBe(2);
      });
    });

    it('starts the count again in a new month', async () => {
      await inTx(async (org) => {
        await plan(org, { tool_calls_per_month: 2 });
        await db.query(
          `UPDATE org_usage SET month = (cairn_month_start(now()) - interval '1 month')::date, month_calls = 2 WHERE org_id = $1`,
          [org],
        );
        await setOrg(org);
        await meter('write');
        expect(await usage(org)).toBe(1);
      });
    });

    it("limits a key's rate, counting every request, and says when to retry", async () => {
      await inTx(async (org) => {
        await plan(org, { requests_per_minute: 2 });
        const key = (await db.query('SELECT id FROM api_keys WHERE org_id = $1', [org]))[0]?.id as string;
        await setOrg(org, key);
        await meter('request');
        await meter('write');
        const refused = await raisedBy(`SELECT cairn_meter('request', 7)`);
        expect(refused?.code).toBe('CN429');
        expect(refused?.detail).toMatchObject({ limit: 'requests_per_minute', value: 2, window: 60 });
        expect(refused?.detail.retry_after).toBeGreaterThan(0);
        expect(refused?.detail.retry_after).toBeLessThanOrEqual(30);
      });
    });

    it('lets a read commit without waiting for the disk, never a write', async () => {
      await inTx(async (org) => {
        await setOrg(org);
        await meter('write');
        expect(await one(`SELECT current_setting('synchronous_commit') AS r`)).toBe('on');
        await meter('recall');
        expect(await one(`SELECT current_setting('synchronous_commit') AS r`)).toBe('off');
      });
    });
  });
});
