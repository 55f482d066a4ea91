import { describe, expect, it } from 'vitest';
import { expansionsOf, kindsAskedFor } from '../../src/domain/query';
import { synonymsOf } from '../../src/domain/vocabulary';

describe('recall query expansion', () => {
  it('brings the other forms of irregular verbs', () => {
    expect(expansionsOf('Where did Caroline go?')).toEqual(['went', 'gone']);
    expect(expansionsOf('who bought the car')).toEqual(['buy']);
  });

  it("brings the trade's abbreviations and synonyms, words and phrases, never the query's own words", () => {
    expect(synonymsOf('PG version in prod?')).toEqual(expect.arrayContaining(['postgres', 'postgresql', 'production']));
    expect(synonymsOf('k8s rollout')).toEqual(expect.arrayContaining(['kubernetes', 'deploy']));
    expect(synonymsOf('brute force on the sign in page')).toEqual(
      expect.arrayContaining(['credential stuffing', 'login', 'authentication']),
    );
    expect(synonymsOf('postgres and pg')).not.toContain('pg');
  });

  it('leaves other queries untouched', () => {
    expect(expansionsOf('kafka partition lag').filter((t) => !['queue', 'queues'].includes(t))).not.toContain('kafka');
    expect(expansionsOf('xylophone quagmire')).toEqual([]);
    expect(expansionsOf('')).toEqual([]);
  });
});

describe('the kinds a question asks for', () => {
  it.each([
    ['why did we move away from Prisma?', ['decision']],
    ['what failed in CI last night?', ['observation']],
    ['how was the webhook signature error fixed?', ['observation', 'memory', 'decision']],
    ['how do we name migrations here?', ['memory']],
    ['is the payments migration plan done yet?', ['plan']],
    ['postgres version', []],
  ])('%s', (query, kinds) => {
    expect(kindsAskedFor(query).sort()).toEqual([...kinds].sort());
  });
});
