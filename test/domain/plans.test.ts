import { describe, expect, it } from 'vitest';
import { allowedFrom } from '../../src/domain/plans';

describe('plan status moves', () => {
  it.each([
    ['draft', []],
    ['active', ['draft']],
    ['done', ['active']],
    ['abandoned', ['draft', 'active']],
  ] as const)('%s is reached from %j', (to, from) => {
    expect(allowedFrom(to)).toEqual(from);
  });
});
