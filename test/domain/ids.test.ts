import { describe, expect, it } from 'vitest';
import { UUID_RE, uuidv7 } from '../../src/domain/ids';

describe('uuidv7', () => {
  it('is a version 7, variant 1 UUID carrying the time in its first 48 bits', () => {
    const id = uuidv7(Date.UTC(2030, 0, 1));
    expect(id).toMatch(UUID_RE);
    expect(id[14]).toBe('7');
    expect('89ab').toContain(id[19]);
    expect(Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBeGreaterThanOrEqual(Date.UTC(2030, 0, 1));
  });

  it('strictly increases within one millisecond and when the clock steps back', () => {
    const t = Date.UTC(2031, 5, 1);
    const ids = [
      ...Array.from({ length: 1000 }, () => uuidv7(t)),
      ...Array.from({ length: 10 }, () => uuidv7(t - 5000)),
      uuidv7(t + 1),
    ];
    for (let i = 1; i < ids.length; i++) expect((ids[i] as string) > (ids[i - 1] as string)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('draws fresh random bits for each id, past the pool it draws them from', () => {
    const t = Date.UTC(2032, 0, 1);
    // one id a millisecond, so none is a step from the previous one: each tail is its own draw
    const tails = Array.from({ length: 300 }, (_, i) =>
      uuidv7(t + i)
        .replace(/-/g, '')
        .slice(16),
    );
    expect(new Set(tails).size).toBe(tails.length);
  });
});
