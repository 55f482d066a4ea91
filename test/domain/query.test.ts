import { describe, expect, it } from 'vitest';
import { expandQuery } from '../../src/domain/query';

describe('recall query expansion', () => {
  it('brings the other forms of irregular verbs, keeping the query', () => {
    expect(expandQuery('Where did Caroline go?')).toBe('Where did Caroline go? went gone');
    expect(expandQuery('who bought the car')).toBe('who bought the car buy');
  });

  it('leaves other queries untouched', () => {
    expect(expandQuery('kafka partition lag')).toBe('kafka partition lag');
    expect(expandQuery('')).toBe('');
  });
});
