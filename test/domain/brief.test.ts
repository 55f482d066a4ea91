/** A brief fits its budget whatever it is given, ranks within sections and drops what repeats itself. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type BriefCandidate,
  briefCandidate,
  briefCandidates,
  heldCandidates,
  keptDerivations,
  packBrief,
} from '../../src/domain/brief';
import type { BriefFullRow, BriefSection } from '../../src/domain/operations';
import type { Entry } from '../../src/domain/schemas';

const PROJECT = 'github.com/acme/shop';
let n = 0;

function entry(over: Partial<Entry>): Entry {
  n++;
  const at = `2026-11-${String(1 + (n % 28)).padStart(2, '0')}T10:00:00.000Z`;
  return {
    id: `00000000-0000-7000-8000-${String(n).padStart(12, '0')}`,
    kind: 'memory',
    content: `entry number ${n}`,
    rationale: null,
    source: null,
    title: null,
    status: null,
    steps: null,
    tags: [],
    scope: 'project',
    project: PROJECT,
    agent: 'alice',
    metadata: {},
    created_at: at,
    updated_at: at,
    version: 1,
    supersedes: null,
    superseded_by: null,
    expires_at: null,
    paths: null,
    commit: null,
    stale: null,
    ...over,
  };
}

const c = (section: BriefSection, over: Partial<Entry>): BriefCandidate => ({ section, entry: entry(over) });

const sample = (): BriefCandidate[] => [
  c('plans', {
    kind: 'plan',
    title: 'Move payments to PaymentIntents',
    content: 'Move payments to PaymentIntents',
    status: 'active',
    steps: [
      { text: 'Port checkout', status: 'done' },
      { text: 'Port refunds', status: 'doing' },
      { text: 'Drop the Charges code', status: 'todo' },
    ],
  }),
  c('decisions', {
    kind: 'decision',
    content: 'Use Kysely instead of Prisma for all new database code in the shop',
    rationale: 'Slot reservation needs SELECT FOR UPDATE SKIP LOCKED',
  }),
  c('conventions', {
    content: 'Never rename a column in one release: expand, backfill, contract.',
    tags: ['conventions'],
  }),
  c('conventions', { content: 'Prefer cursor pagination on every new list endpoint of the API.' }),
  c('failures', { kind: 'observation', content: 'CI failed on a prettier check; fixed with pnpm format.' }),
  c('failures', {
    kind: 'observation',
    content: 'Checkout crashed with a deadlock in reserveSlots under load',
    tags: ['incident'],
  }),
  c('stale', {
    kind: 'plan',
    title: 'Upgrade the search cluster',
    content: 'Upgrade the search cluster',
    status: 'active',
    steps: [{ text: 'Snapshot the index', status: 'todo' }],
    updated_at: '2026-09-01T10:00:00.000Z',
  }),
];

describe('packBrief', () => {
  it("shows each section under its heading, what to do next, why decisions were made, and each entry's handle", () => {
    const cands = sample();
    const b = packBrief(cands, 4000, PROJECT);
    expect(b.text).toMatch(/^Brief for project github\.com\/acme\/shop \(with org-wide entries\): 7 entries\./);
    expect(b.sections.map((s) => s.section)).toEqual(['plans', 'decisions', 'conventions', 'failures', 'stale']);
    expect(b.text).toContain('[active, 1/3 done] Next: #1 (doing) Port refunds; #2 Drop the Charges code.');
    expect(b.text).toContain('Why: Slot reservation needs SELECT FOR UPDATE SKIP LOCKED');
    expect(b.text).toContain('[active, 0/1 done, unchanged since 2026-09-01]');
    // each line ends on its entry's handle (the id's last 8 hex digits, which the tools take), never the whole id
    const handle = (section: BriefSection, i = 0) =>
      cands.filter((x) => x.section === section)[i]?.entry.id.slice(-8) as string;
    const items = b.sections.flatMap((s) => s.items);
    expect(items).toHaveLength(7);
    for (const it of items) expect(it.text).toContain(`id ${it.id.slice(-8)})`);
    expect(b.text).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/);
    expect(b.text).toContain(`Drop the Charges code. (plan id ${handle('plans')})`);
    expect(b.text).toContain(`SKIP LOCKED (alice, id ${handle('decisions')})`);
    expect(b.text).toContain(`expand, backfill, contract. (alice, id ${handle('conventions')})`);
    expect(b.text).toContain(`under load (alice, id ${handle('failures', 1)})`);
    expect(b.text).toContain(`(plan id ${handle('stale')})`);
    expect(b.left_out).toBe(0);
    expect(b.chars).toBe(b.text.length);
  });

  it('ranks a rule-tagged convention and a severe, unsettled failure first', () => {
    const b = packBrief(sample(), 4000, PROJECT);
    const items = (s: BriefSection) => b.sections.find((x) => x.section === s)?.items.map((i) => i.text) ?? [];
    expect(items('conventions')[0]).toContain('Never rename a column');
    expect(items('failures')[0]).toContain('crashed with a deadlock');
    expect(items('failures')[1]).toContain('prettier');
  });

  it("ranks the project's own entries before org-wide ones, and marks those", () => {
    const b = packBrief(
      [
        c('decisions', {
          kind: 'decision',
          content: 'Org-wide: every repo moves to Node 22 this quarter',
          project: null,
        }),
        c('decisions', { kind: 'decision', content: 'The shop API returns problem+json errors with a stable code' }),
      ],
      4000,
      PROJECT,
    );
    const texts = b.sections[0]?.items.map((i) => i.text) ?? [];
    expect(texts[0]).toContain('problem+json');
    expect(texts[1]).toMatch(/Node 22 .*\[org-wide\]$/);
  });

  it('keeps one of two entries that say the same thing', () => {
    const b = packBrief(
      [
        c('decisions', { kind: 'decision', content: 'Use Kysely instead of Prisma for all new database code' }),
        c('conventions', { content: 'Use Kysely instead of Prisma for all new database code, please' }),
      ],
      4000,
      PROJECT,
    );
    expect(b.sections.flatMap((s) => s.items)).toHaveLength(1);
    expect(b.left_out).toBe(0);
  });

  it('drops an entry whose words overlap a shown one by 60 % or more, and short ones only when equal', () => {
    const shown = (contents: string[]) =>
      packBrief(
        contents.map((content) => c('conventions', { content })),
        4000,
        PROJECT,
      ).sections.flatMap((s) => s.items);
    // five words each: four shared is 4/6 of their words (the newer is shown), three shared 3/7
    expect(shown(['alpha bravo charlie delta echo', 'alpha bravo charlie delta foxtrot'])).toHaveLength(1);
    expect(shown(['alpha bravo charlie delta echo', 'alpha bravo charlie golf foxtrot'])).toHaveLength(2);
    // under four words: the same only when the words are the same
    expect(shown(['alpha bravo charlie', 'Charlie, alpha; bravo!'])).toHaveLength(1);
    expect(shown(['alpha bravo charlie', 'alpha bravo charlie delta'])).toHaveLength(2);
  });

  // an entry's words as the brief defines them: of its title and content, lower-cased, three
  // letters or more (Unicode letters and digits in a text that is not ASCII)
  const wordsOf = (e: Pick<Entry, 'title' | 'content'>) => {
    const text = `${e.title ?? ''} ${e.content}`.toLowerCase();
    return new Set((/[^\x00-\x7f]/.test(text) ? text.match(/[\p{L}\p{N}_]{3,}/gu) : text.match(/\w{3,}/g)) ?? []);
  };
  const same = (a: Set<string>, b: Set<string>) => {
    if (a.size < 4 || b.size < 4) return a.size === b.size && [...a].every((w) => b.has(w));
    const both = [...a].filter((w) => b.has(w)).length;
    return both / (a.size + b.size - both) >= 0.6;
  };
  /** No two entries shown say the same, and each one left out repeats one shown (all fit the budget). */
  const repeatsNothingShown = (cands: BriefCandidate[]) => {
    const b = packBrief(cands, 1_000_000, PROJECT);
    const ids = new Set(b.sections.flatMap((s) => s.items.map((i) => i.id)));
    const kept = cands.filter((x) => ids.has(x.entry.id)).map((x) => wordsOf(x.entry));
    for (const [i, a] of kept.entries()) {
      for (const other of kept.slice(i + 1)) expect(same(a, other)).toBe(false);
    }
    for (const x of cands.filter((x) => !ids.has(x.entry.id))) {
      expect(kept.some((k) => same(k, wordsOf(x.entry)))).toBe(true);
    }
    return kept.length;
  };

  it('shows no two entries that say the same, and drops none that repeats nothing shown', () => {
    // words that differ only in case, digits and underscores, words too short to count, and words
    // outside ASCII (an entry's words are then found by Unicode classes)
    const vocabulary = [
      'cache',
      'Cache',
      'REDIS',
      'redis',
      'ZONE',
      'zone',
      'deploy_v2',
      'schema',
      'idx',
      'to',
      'lint',
      'k8s',
      '2026',
    ];
    const foreign = ['Straße', 'café', 'naïve', 'ÉCOLE', '日本語', 'Ωmega'];
    const word = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...vocabulary) },
      { weight: 1, arbitrary: fc.constantFrom(...foreign) },
    );
    const text = fc
      .array(fc.tuple(word, fc.constantFrom(' ', ', ', '-', '.\n', '/', '  ')), { minLength: 1, maxLength: 8 })
      .map((ws) => ws.map(([w, sep]) => w + sep).join(''));
    fc.assert(
      fc.property(fc.array(fc.tuple(text, fc.option(text, { nil: null })), { maxLength: 40 }), (texts) => {
        repeatsNothingShown(texts.map(([content, title]) => c('conventions', { content, title })));
      }),
      { numRuns: 500 },
    );
  });

  it('compares thousands of words over a hundred lines as it does a few', () => {
    // more words and lines than the index starts with room for, so it grows while it is filled
    const text = fc
      .array(fc.integer({ min: 0, max: 6000 }), { minLength: 1, maxLength: 45 })
      .map((ns) => ns.map((n) => `term${n}`).join(' '));
    // an entry that repeats one before it, with a word or two changed
    const echo = (t: string, n: number) => `${t.split(' ').slice(n).join(' ')} extra${n}`;
    fc.assert(
      fc.property(fc.array(text, { minLength: 100, maxLength: 160 }), (texts) => {
        const contents = texts.flatMap((t, i) => (i % 5 === 0 ? [t, echo(t, i % 3)] : [t]));
        const kept = repeatsNothingShown(contents.map((content) => c('conventions', { content })));
        expect(kept).toBeGreaterThan(90);
      }),
      { numRuns: 20 },
    );
  });

  it('takes sections in turns, so a long section does not crowd out the others', () => {
    const many = Array.from({ length: 60 }, (_, i) =>
      c('decisions', {
        kind: 'decision',
        content: `Module m${i} uses engine e${i} with cache c${i}, retries r${i}, owner o${i} and timeout t${i}.`,
        rationale: `Measured on host h${i} by team q${i}.`,
      }),
    );
    const b = packBrief([...many, ...sample()], 4000, PROJECT);
    expect(b.sections.map((s) => s.section)).toEqual(['plans', 'decisions', 'conventions', 'failures', 'stale']);
    expect(b.left_out).toBeGreaterThan(20);
    expect(b.text).toMatch(/ \d+ more left out: recall finds them\./);
  });

  it('never exceeds the budget, and the same candidates give the same brief', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 500, max: 6000 }),
        fc.array(
          fc.record({
            section: fc.constantFrom<BriefSection>('plans', 'decisions', 'conventions', 'failures', 'stale'),
            content: fc.string({ minLength: 1, maxLength: 600 }),
            rationale: fc.option(fc.string({ minLength: 1, maxLength: 400 }), { nil: null }),
          }),
          { maxLength: 80 },
        ),
        (budget, raw) => {
          const cands = raw.map((r) =>
            c(r.section, {
              kind: r.section === 'plans' || r.section === 'stale' ? 'plan' : 'memory',
              content: r.content,
              title: r.content,
              rationale: r.rationale,
              status: 'active',
              steps: [{ text: r.content, status: 'todo' }],
            }),
          );
          const a = packBrief(cands, budget, PROJECT);
          expect(a.text.length).toBeLessThanOrEqual(budget);
          expect(packBrief([...cands].reverse(), budget, PROJECT).text).toBe(a.text);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('says so when there is nothing to brief, or when nothing fits', () => {
    expect(packBrief([], 4000, PROJECT).text).toMatch(/^Nothing to brief yet for project github\.com\/acme\/shop/);
    const step = (w: string) => ({ text: `${w} `.repeat(40), status: 'todo' });
    const long = c('plans', {
      kind: 'plan',
      title: 'a very long plan title '.repeat(10),
      status: 'active',
      steps: [step('one'), step('two'), step('three')],
    });
    const b = packBrief([long], 500, PROJECT);
    expect(b.text).toBe('No entry of the brief fits in 500 characters; call again with a larger budget_chars.');
    expect(b.left_out).toBe(1);
    expect(packBrief([long], 4000, PROJECT).sections).toHaveLength(1);
  });
});

describe('what packing keeps between briefs', () => {
  it('gives the brief that deriving every candidate afresh gives, when kept ids come back changed', () => {
    // candidates briefed again and again, one field of one of them changed each time: what was
    // kept of a candidate must never serve it changed
    const ids = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `00000000-0000-7000-9000-${String(i).padStart(12, '0')}`);
    const field = {
      section: fc.constantFrom<BriefSection>('plans', 'stale', 'decisions', 'conventions', 'failures'),
      kind: fc.constantFrom<Entry['kind']>('memory', 'note', 'decision', 'observation', 'plan'),
      content: fc.constantFrom(
        'Deploy broke the cache warmer',
        'deploy broke the cache warmer again',
        'Use Kysely for all new database code',
        'Checkout returned 500s; fixed by a retry',
      ),
      title: fc.option(fc.constantFrom('Cache warmer', 'deploy broke the cache warmer'), { nil: null }),
      rationale: fc.option(fc.constantFrom('It was measured', 'Prisma cannot lock rows'), { nil: null }),
      agent: fc.constantFrom('alice', 'bob'),
      tags: fc.subarray(['convention', 'incident', 'infra']),
      day: fc.integer({ min: 1, max: 3 }),
      project: fc.constantFrom(PROJECT, null),
      status: fc.constantFrom('active', 'draft'),
    };
    type Raw = { [K in keyof typeof field]: (typeof field)[K] extends fc.Arbitrary<infer T> ? T : never };
    const change = fc.oneof(
      ...Object.entries(field).map(([name, values]) =>
        fc.record({ at: fc.nat(7), name: fc.constant(name as keyof Raw), value: values as fc.Arbitrary<unknown> }),
      ),
    );
    const toCandidate = (r: Raw, id: string) => {
      const at = `2026-11-0${r.day}T10:00:00.000Z`;
      const plan = r.kind === 'plan';
      return c(r.section, {
        id,
        kind: r.kind,
        content: r.content,
        title: r.title,
        rationale: r.rationale,
        agent: r.agent,
        tags: r.tags,
        project: r.project,
        status: plan ? r.status : null,
        steps: plan ? [{ text: r.content, status: 'todo' }] : null,
        created_at: at,
        updated_at: at,
      });
    };
    fc.assert(
      fc.property(
        fc.array(fc.record(field), { minLength: 8, maxLength: 8 }),
        fc.array(change, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 500, max: 3000 }),
        (base, changes, budget) => {
          keptDerivations.clear();
          const now = base.map((r) => ({ ...r }));
          for (const ch of [undefined, ...changes]) {
            if (ch) (now[ch.at] as Record<string, unknown>)[ch.name] = ch.value;
            const cands = now.map((r, i) => toCandidate(r, ids[i] as string));
            const kept = packBrief(cands, budget, PROJECT);
            keptDerivations.clear();
            expect(kept).toEqual(packBrief(cands, budget, PROJECT));
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('ranks a kept candidate again when its tags change', () => {
    keptDerivations.clear();
    const at = '2026-11-02T10:00:00.000Z';
    const older = { content: 'Tabs in the Go services', created_at: '2026-11-01T10:00:00.000Z' };
    const newer = { content: 'Prettier for the web app', created_at: at, updated_at: at };
    const order = (tagsOfOlder: string[][]) =>
      tagsOfOlder.map((tags) => {
        const b = packBrief(
          [
            c('conventions', { id: 'c-older', ...older, tags }),
            c('conventions', { id: 'c-newer', ...newer, tags: ['style-guide'] }),
          ],
          2000,
          PROJECT,
        );
        return b.sections[0]?.items.map((i) => i.id);
      });
    // a rule tag added, then one swapped for another of the same count, then dropped
    expect(order([[], ['convention'], ['infra'], ['infra', 'rule'], ['infra']])).toEqual([
      ['c-newer', 'c-older'],
      ['c-older', 'c-newer'],
      ['c-newer', 'c-older'],
      ['c-older', 'c-newer'],
      ['c-newer', 'c-older'],
    ]);
  });

  it('keeps at most 4096 candidates and 4 million characters', () => {
    keptDerivations.clear();
    for (let b = 0; b < 60; b++) {
      const many = Array.from({ length: 100 }, (_, i) =>
        c('decisions', { kind: 'decision', content: `Decision ${b}-${i}: use engine e${i} for module m${b}` }),
      );
      packBrief(many, 4000, PROJECT);
    }
    expect(keptDerivations.count()).toBe(4096);
    const huge = Array.from({ length: 30 }, (_, i) => c('conventions', { content: `${'word '.repeat(40_000)}${i}` }));
    packBrief(huge, 4000, PROJECT);
    expect(keptDerivations.chars()).toBeLessThanOrEqual(4_000_000);
    expect(keptDerivations.count()).toBeGreaterThan(10);
    keptDerivations.clear();
  });
});

describe('the candidates a brief holds from the last one of its read', () => {
  const row = (section: BriefSection, e: Entry, version: string): BriefFullRow => [
    section,
    e.id,
    e.kind,
    e.content,
    e.rationale,
    e.title,
    e.status,
    e.steps,
    e.tags,
    e.project,
    e.agent,
    e.created_at,
    e.updated_at,
    version,
    e.stale,
    e.paths,
    e.commit,
  ];
  const plan = entry({
    kind: 'plan',
    title: 'Move payments',
    content: 'Move payments',
    status: 'active',
    steps: [{ text: 'Port checkout', status: 'todo' }],
  });
  const decision = entry({ kind: 'decision', content: 'Use Kysely', rationale: 'row locks' });
  const failure = entry({ kind: 'observation', content: 'Checkout crashed', tags: ['incident'] });
  const READ = `${PROJECT}\n`;

  it('sends what it holds as id and version, and reads back what the store sends by id', () => {
    keptDerivations.clear();
    expect(heldCandidates(READ).known).toEqual({});
    const first = [row('plans', plan, '10'), row('decisions', decision, '11'), row('failures', failure, '12')];
    const whole = packBrief(briefCandidates(first, heldCandidates(READ), READ), 4000, PROJECT);
    const held = heldCandidates(READ);
    expect(held.known).toEqual({ [plan.id]: '10', [decision.id]: '11', [failure.id]: '12' });
    expect(heldCandidates('another project\n').known).toEqual({});
    // the store sends the unchanged ones by id; the plan changed (a new version) comes whole
    const moved = { ...plan, steps: [{ text: 'Port checkout', status: 'done' as const }] };
    const again = briefCandidates(
      [row('plans', moved, '13'), ['decisions', decision.id], ['failures', failure.id]],
      held,
      READ,
    );
    const brief = packBrief(again, 4000, PROJECT);
    expect(brief.text).not.toBe(whole.text);
    expect(brief.text).toContain('[active, 1/1 done]');
    keptDerivations.clear();
    const fresh = [row('plans', moved, '13'), row('decisions', decision, '11'), row('failures', failure, '12')];
    expect(brief).toEqual(packBrief(briefCandidates(fresh, heldCandidates(READ), READ), 4000, PROJECT));
    expect(heldCandidates(READ).known).toEqual({ [plan.id]: '13', [decision.id]: '11', [failure.id]: '12' });
  });

  it('reads back the version it sent, whatever another brief keeps meanwhile', () => {
    keptDerivations.clear();
    const first = [row('decisions', decision, '11'), row('failures', failure, '12')];
    packBrief(briefCandidates(first, heldCandidates(READ), READ), 4000, PROJECT);
    const sent = heldCandidates(READ);
    // another brief of the read, answered first, receives the failure changed
    const changed = { ...failure, content: 'Checkout crashed again', tags: [] };
    const other = heldCandidates(READ);
    packBrief(
      briefCandidates([['decisions', decision.id], row('failures', changed, '20')], other, READ),
      4000,
      PROJECT,
    );
    expect(heldCandidates(READ).known[failure.id]).toBe('20');
    // the first one's answer names the failure at the version it was sent
    const late = briefCandidates(
      [
        ['decisions', decision.id],
        ['failures', failure.id],
      ],
      sent,
      READ,
    );
    expect(late.map((x) => [x.entry.content, x.entry.tags, x.version])).toEqual([
      ['Use Kysely', [], '11'],
      ['Checkout crashed', ['incident'], '12'],
    ]);
  });

  it('refuses a candidate sent by id that it did not hold', () => {
    keptDerivations.clear();
    expect(() => briefCandidates([['decisions', decision.id]], heldCandidates(READ), READ)).toThrow(/did not hold/);
  });

  it('remembers the last candidates of at most 1024 reads', () => {
    keptDerivations.clear();
    for (let i = 0; i < 1100; i++)
      briefCandidates([row('decisions', decision, '11')], heldCandidates(`p${i}\n`), `p${i}\n`);
    expect(keptDerivations.reads()).toBe(1024);
    keptDerivations.clear();
  });
});

describe('briefCandidate', () => {
  it("reads the store's row field by field, its times as ISO strings", () => {
    const steps = [{ text: 'Port checkout', status: 'done' as const }];
    expect(
      briefCandidate([
        'stale',
        '01900000-0000-7000-8000-000000000001',
        'plan',
        'Move payments',
        null,
        'Payments',
        'active',
        steps,
        ['payments'],
        null,
        'alice',
        '2026-11-01T10:00:00.123456+00:00',
        '2026-11-02T11:30:00+00:00',
        '4242',
        null,
        ['src/payments/'],
        'ab12cd3',
      ]),
    ).toEqual({
      section: 'stale',
      version: '4242',
      entry: {
        id: '01900000-0000-7000-8000-000000000001',
        kind: 'plan',
        content: 'Move payments',
        rationale: null,
        title: 'Payments',
        status: 'active',
        steps,
        tags: ['payments'],
        project: null,
        agent: 'alice',
        created_at: '2026-11-01T10:00:00.123Z',
        updated_at: '2026-11-02T11:30:00.000Z',
        stale: null,
        paths: ['src/payments/'],
        commit: 'ab12cd3',
      },
    });
  });
});
