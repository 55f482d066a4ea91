/** clip folds only a prefix of a long text; what it returns must be what folding the whole gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clip } from '../../src/domain/summary';

/** The definition: fold every whitespace run of the whole text, then clip. */
function clipWhole(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

describe('clip', () => {
  it('equals folding the whole text, for texts of words and long whitespace runs', () => {
    const piece = fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom(' ', '\n', '\t \n', ' '.repeat(50), '\n'.repeat(300), '\u00a0', '\v\f\r', '\u2028', '\u3000'),
      // every character \s matches, and its neighbours that it does not
      fc.constantFrom(
        ...'\u0008\u000e\u001f\u0085\u00a0\u1680\u180e\u2000\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 120 }), fc.integer({ min: 2, max: 300 }), (parts, max) => {
        const s = parts.join('');
        expect(clip(s, max)).toBe(clipWhole(s, max));
      }),
      { numRuns: 500 },
    );
  });

  it('keeps a short text whole and marks a cut one', () => {
    expect(clip('  a\n\n b  ', 10)).toBe('a b');
    expect(clip(`${'word '.repeat(1000)}end`, 20)).toBe('word word word word…');
    expect(clip(`${' '.repeat(5000)}x`, 5)).toBe('x');
    expect(clip('exactly ten', 11)).toBe('exactly ten');
    expect(clip('exactly ten ', 10)).toBe('exactly t…');
    expect(clip('', 10)).toBe('');
  });
});
