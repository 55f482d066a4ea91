/** Which hits the user-prompt hook injects (src/agent/relevance.ts, terms.ts). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLOOR, fittingHits, RELATIVE, rareWordIdf } from '../../src/agent/relevance';
import { stem, tellingTerms, wordsOf } from '../../src/domain/terms';

const hit = (score: number, content: string, more: Record<string, unknown> = {}) => ({ score, content, ...more });

describe('the telling words of a prompt', () => {
  it('are none in chatter', () => {
    for (const p of ['thanks, looks good', 'continue', 'ok do it', 'yes please', 'try again', 'what do you think?']) {
      expect(tellingTerms(p)).toEqual([]);
    }
  });

  it('are its names, identifiers and the trade’s words, stemmed', () => {
    expect(tellingTerms('Why did we move away from Prisma for the migrations?').sort()).toEqual(['migrate', 'prisma']);
    expect(tellingTerms('fix RecordTooLargeException in src/orders/db.ts').sort()).toEqual([
      'exception',
      'order',
      'record',
      'recordtoolargeexception',
      'src',
      'src/orders/db.ts',
    ]);
  });

  it('are the words the Unicode classes find, whatever shortcut an ASCII text or a plain word takes', () => {
    // the splitting as first written: Unicode classes for every text, every word split
    const reference = (text: string) =>
      (text.match(/[\p{L}\p{N}][\p{L}\p{N}_./:@#-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu) ?? []).flatMap((token) => {
        const parts = token
          .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
          .split(/[\s_./:@#-]+/)
          .filter(Boolean)
          .map((p) => p.toLowerCase());
        return parts.length > 1 ? [...parts, token.toLowerCase()] : parts;
      });
    const piece = fc.constantFrom(
      'Kysely',
      'db.ts',
      'src/orders',
      'RecordTooLarge',
      'ÉTÉ',
      'zoë',
      'x-y',
      '42',
      ' ',
      '—',
      'AbC',
      'aB',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(piece).map((p) => p.join('')),
        ),
        (text) => {
          expect(wordsOf(text)).toEqual(reference(text));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('split identifiers the way recall does, keeping each whole', () => {
    expect(wordsOf('otel-collector:4318 camelCaseName')).toEqual([
      'otel',
      'collector',
      '4318',
      'otel-collector:4318',
      'camel',
      'case',
      'name',
      'camelcasename',
    ]);
    expect(['retries', 'retried', 'migrations', 'indexing', 'classes'].map(stem)).toEqual([
      'retry',
      'retry',
      'migrate',
      'index',
      'class',
    ]);
  });
});

describe('fittingHits', () => {
  const N = 200;
  const unit = rareWordIdf(N);

  it('keeps hits sharing a telling word, over the floor and near the best', () => {
    const hits = [
      hit(3 * unit, 'Orders use Kysely, never raw SQL'),
      hit(2 * unit, 'Kysely migrations run with pnpm db:migrate'),
      hit(1.2 * unit, 'Kysely was upgraded to 0.27'), // under half the best
    ];
    expect(fittingHits('do we write queries with Kysely?', hits, N).map((h) => h.content)).toEqual([
      'Orders use Kysely, never raw SQL',
      'Kysely migrations run with pnpm db:migrate',
    ]);
  });

  it('drops a hit found through common words only, however it scores', () => {
    expect(fittingHits('thanks, looks good', [hit(9 * unit, 'Keys look like svc_ and 32 characters')], N)).toEqual([]);
    expect(fittingHits('make the header sticky', [hit(9 * unit, 'Make targets: make build, make test')], N)).toEqual(
      [],
    );
  });

  it('finds the shared word in a rationale, source, tags or paths, in a longer form, or through a synonym', () => {
    const prompt = 'is PG tuned?';
    expect(fittingHits(prompt, [hit(3 * unit, 'Raised work_mem on Postgres to 64MB')], N)).toHaveLength(1);
    expect(fittingHits('checkout', [hit(3 * unit, 'x', { paths: ['src/checkout/pay.ts'] })], N)).toHaveLength(1);
    expect(fittingHits('the flaky e2e', [hit(3 * unit, 'x', { tags: ['flaky'] })], N)).toHaveLength(1);
    expect(fittingHits('postgres settings', [hit(3 * unit, 'PostgreSQL 17.2 in prod')], N)).toHaveLength(1);
  });

  it('keeps a hit holding more than a third of the prompt’s telling words, or three of a long prompt', () => {
    const grafana = hit(3 * unit, 'Observability: the Grafana Cloud stack holds our metrics, logs and traces');
    // one word of four: another topic that uses the word
    expect(fittingHits("what's the difference between stack and heap memory?", [grafana], N)).toEqual([]);
    // the same word among others of the prompt the hit holds too
    expect(fittingHits('where do the logs and traces of our stack go?', [grafana], N)).toHaveLength(1);
    const long =
      'after the deploy this morning the dashboards look empty, I think metrics stopped arriving somewhere ' +
      'between the collector and the backend, and the alerts did not fire either; where do we keep our traces and logs?';
    // three words of a long prompt's many
    expect(fittingHits(long, [grafana], N)).toHaveLength(1);
    expect(fittingHits(long, [hit(3 * unit, 'The deploy pipeline posts to #releases')], N)).toEqual([]);
  });

  it('sets the bar by the size of the org: the same score fits in a small org, not in a large one', () => {
    const score = FLOOR * rareWordIdf(40) + 0.01;
    expect(fittingHits('kysely', [hit(score, 'Kysely everywhere')], 40)).toHaveLength(1);
    expect(fittingHits('kysely', [hit(score, 'Kysely everywhere')], 10_000)).toHaveLength(0);
    expect(RELATIVE).toBe(0.5);
  });
});
