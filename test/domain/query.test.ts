import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { kindAskedBy, kindsAskedFor, MAX_PARTS, queryParts, rankedQuery, termGroups } from '../../src/domain/query';
import { vocabularyGroups, vocabularyTerms } from '../../src/domain/vocabulary';

describe('recall query expansion', () => {
  it('groups the other forms of irregular verbs with the word', () => {
    expect(termGroups('Where did Caroline go?')).toEqual([['go', 'went', 'gone']]);
    expect(termGroups('who bought the car')).toEqual([['bought', 'buy']]);
  });

  it("groups the trade's abbreviations and synonyms with the query's word or phrase", () => {
    const groups = vocabularyGroups('PG version in prod?');
    expect(groups).toContainEqual(expect.arrayContaining(['pg', 'postgres', 'postgresql']));
    expect(groups.find((g) => g[0] === 'prod')).toEqual(expect.arrayContaining(['production']));
    expect(vocabularyGroups('brute force on the sign in page')).toEqual(
      expect.arrayContaining([
        expect.arrayContaining(['brute force', 'credential stuffing']),
        expect.arrayContaining(['sign in', 'login', 'authentication']),
      ]),
    );
    expect(vocabularyGroups('k8s rollout').map((g) => g[0])).toEqual(['k8s', 'rollout']);
  });

  it('finds every word and phrase of up to three words the vocabulary knows, in the order of the query', () => {
    const terms = vocabularyTerms();
    const known = new Set(terms);
    // what the vocabulary finds in a query, by looking up every run of one to three words
    const everyRun = (query: string) => {
      const words = query.toLowerCase().match(/[a-z0-9][a-z0-9.]*[a-z0-9]|[a-z0-9]/g) ?? [];
      const found: string[] = [];
      for (let i = 0; i < words.length; i++) {
        for (let n = 1; n <= 3 && i + n <= words.length; n++) {
          const run = words.slice(i, i + n).join(' ');
          if (known.has(run)) found.push(run);
        }
      }
      return found;
    };
    expect(terms.filter((t) => t.includes(' ')).length).toBeGreaterThan(10);
    const word = fc.oneof(fc.constantFrom(...terms), fc.constantFrom('the', 'on', 'we', 'Fix', 'API', 'v2.1'));
    fc.assert(
      fc.property(fc.array(word, { maxLength: 12 }), (parts) => {
        const query = parts.join(' ');
        expect(vocabularyGroups(query).map((g) => g[0])).toEqual(everyRun(query));
      }),
      { numRuns: 500 },
    );
  });

  it('brings nothing for words the vocabulary does not know', () => {
    expect(termGroups('xylophone quagmire')).toEqual([]);
    expect(termGroups('')).toEqual([]);
  });
});

describe('the words a hit must hold one of', () => {
  it('are the words of a question less the language of a request', () => {
    expect(rankedQuery('write an example of a closure, the short way').evidence).toEqual(['closure', 'short']);
    expect(rankedQuery('Why did we move away from Prisma?').evidence).toEqual(['prisma']);
  });

  it("count everyday words, which a personal memory is about, and the vocabulary's phrases with what they stand for", () => {
    expect(rankedQuery('what books has Melanie read?').evidence).toEqual(['books', 'melanie', 'read']);
    expect(rankedQuery('How do we roll back a release?').evidence).toEqual(
      expect.arrayContaining(['roll', 'release', 'roll back', 'rollback', 'deploy']),
    );
    expect(rankedQuery('PG version').evidence).toEqual(expect.arrayContaining(['version', 'pg', 'postgresql']));
  });

  it('leave out the words that name a kind of entry, which say what is asked for, not about what, unless no other word tells', () => {
    expect(rankedQuery('what did we decide about the database?').evidence).toEqual(
      expect.not.arrayContaining(['decide']),
    );
    expect(rankedQuery('what did we decide about the database?').evidence).toEqual(
      expect.arrayContaining(['database', 'db']),
    );
    expect(rankedQuery("what's the plan for the Kafka upgrade?").evidence).not.toContain('plan');
    expect(rankedQuery('what did we decide?').evidence).toEqual(['decide']);
    expect(rankedQuery('what was observed?').evidence).toEqual(['observed']);
  });

  it('are none for a question made of the language of a request alone, and then every hit counts', () => {
    expect(rankedQuery('can you write an example?')).not.toHaveProperty('evidence');
    expect(rankedQuery('')).not.toHaveProperty('evidence');
  });
});

describe('the telling words recall says no hit mentions', () => {
  it('are the words and identifiers of a question, as written, less common English, each with its parts and synonyms', () => {
    expect(
      rankedQuery("Why weren't the ERR_OSSL_EVP_UNSUPPORTED builds on Stripe's staging DB fixed?").telling,
    ).toEqual([
      ['err_ossl_evp_unsupported', 'err', 'ossl', 'evp', 'unsupported'],
      ['builds'],
      ['stripe'],
      ['staging', 'stage', 'stg', 'preprod'],
    ]);
    expect(rankedQuery('what is the time complexity of a heap?').telling).toEqual([
      ['complexity'],
      ['heap', 'memory', 'ram', 'oom', 'oomkilled', 'out of memory'],
    ]);
    expect(rankedQuery('how do we do it?')).not.toHaveProperty('telling');
  });

  it('are mentioned by a hit of the kind a word asks for alone, which shows it by its form', () => {
    // a plan shows its status and steps, a decision its rationale
    expect(['status', 'Progress', 'remains', 'roadmap'].map(kindAskedBy)).toEqual(['plan', 'plan', 'plan', 'plan']);
    expect(['rationale', 'policy'].map(kindAskedBy)).toEqual(['decision', 'decision']);
    // a failure's words are what it says, "now" asks for a memory or a decision alike, a memory
    // is its text alone ("rules" asks for one, which shows no rule by its form), and a name that
    // holds such a word is a name an entry must write
    const none = ['timeout', 'crashed', 'current', 'rules', 'redis', 'status-page', 'roadmap.md', 'reasonable'];
    expect(none.map(kindAskedBy)).toEqual(none.map(() => undefined));
  });
});

describe('the parts a query is ranked in', () => {
  it('are its sentences that hold a telling word, each with its own words, kinds and evidence', () => {
    const q = "I'm about to make some changes in the billing code. Why did we move away from Prisma? Thanks!";
    expect(queryParts(q)).toEqual([
      "I'm about to make some changes in the billing code.",
      'Why did we move away from Prisma?',
    ]);
    const { parts, evidence } = rankedQuery(q);
    expect(parts?.map((p) => p.query)).toEqual(queryParts(q));
    expect(parts?.[1]).toMatchObject({ prefer_kinds: ['decision'], evidence: ['prisma'] });
    expect(parts?.[0]?.prefer_kinds).toEqual([]);
    // a sentence of no telling word is no part, but what it asks for holds for every part
    expect(
      rankedQuery('Staging deploys hang at the migration step. The release train leaves Friday. Why?').parts?.map(
        (p) => p.prefer_kinds,
      ),
    ).toEqual([['decision'], ['decision']]);
    // the whole query is still sent for what the hits do not mention and the vector
    expect(evidence).toEqual(expect.arrayContaining(['billing', 'prisma']));
  });

  it('are none for one sentence, however it is punctuated, or for one that alone holds a telling word', () => {
    expect(queryParts('Would Tim enjoy reading books by C. S. Lewis or Dr. Seuss?')).toEqual([]);
    expect(queryParts('e.g. the 2.3.2 rollout, i.e. the staging one')).toEqual([]);
    expect(queryParts('What did Mrs. Johnson say about the move to Prof. Lee on Jan. 5?')).toEqual([]);
    expect(queryParts('Why did builds take approx. 9 minutes? Why does `user ? user.id : null` crash?')).toEqual([
      'Why did builds take approx. 9 minutes?',
      'Why does `user ? user.id : null` crash?',
    ]);
    expect(queryParts('Deploy on Jan. 5 went wrong. Why did staging fail?')).toEqual([
      'Deploy on Jan. 5 went wrong.',
      'Why did staging fail?',
    ]);
    expect(queryParts('Why did we leave Docusaurus? Thanks, that is all.')).toEqual([]);
    expect(rankedQuery('why did we leave Docusaurus?')).not.toHaveProperty('parts');
  });

  it(`join a long prompt's sentences in runs of neighbours, at most ${MAX_PARTS}`, () => {
    const sentences = Array.from({ length: 10 }, (_, i) => `The worker${i} queue stalls.`);
    const parts = queryParts(sentences.join(' '));
    expect(parts).toHaveLength(MAX_PARTS);
    expect(parts.join(' ')).toBe(sentences.join(' '));
    expect(parts[0]).toBe(sentences.slice(0, 3).join(' '));
  });
});

describe('the kinds a question asks for', () => {
  it.each([
    ['why did we move away from Prisma?', ['decision']],
    // a failure asks what happened and what was done about it: the fix is a memory
    ['what failed in CI last night?', ['observation', 'memory']],
    // asked how it was fixed, the failure names which one: the fix is asked for, not the failure
    ['how was the webhook signature error fixed?', ['memory', 'decision']],
    ['how do we name migrations here?', ['memory']],
    ['anything to know before touching locking in the storage layer?', ['memory']],
    ['is the payments migration plan done yet?', ['plan']],
    // every form of a status word: "remains" as well as "remaining"
    ['what remains on the outbox work?', ['plan']],
    ['has the rollout finished?', ['plan']],
    // the state things are in now is what a memory or a decision records, not an event
    ['which compilers does the engine support now?', ['memory', 'decision']],
    ['are we still pinning numpy below 2?', ['memory', 'decision']],
    ['current ORDER_TIMEOUT_MS value?', ['memory', 'decision']],
    ['what Rust compiler version does ingest build with?', ['memory', 'decision']],
    ['postgres port', []],
  ])('%s', (query, kinds) => {
    expect(kindsAskedFor(query).sort()).toEqual([...kinds].sort());
  });
});

describe('a question that asks for the state things are in now', () => {
  it('says so, where the later of two entries on it is the current word', () => {
    expect(rankedQuery('what MQTT keepalive do trackers use now?').now).toBe(true);
    expect(rankedQuery('are we still pinning numpy below 2?').now).toBe(true);
    expect(rankedQuery('Which Go version is current? Keep it short.').now).toBe(true);
    // a version asks for what holds, but not always for now: "the previous version" is an event
    expect(rankedQuery('units that got an OTA update went back to the previous version')).not.toHaveProperty('now');
    expect(rankedQuery('why did the build break?')).not.toHaveProperty('now');
  });
});
