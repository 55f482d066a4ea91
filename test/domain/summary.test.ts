/** clip folds only a prefix of a long text; what it returns must be what folding the whole gives. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { clip, nextText, planSummary } from '../../src/domain/summary';

/** The definition: fold every whitespace run of the whole text, then clip. */
function clipWhole(s: string, max: number): string {
  const one = s.replace(/\s+/g, ' ').trim();
  return one.length > max ? `${one.slice(0, max - 1)}…` : one;
}

/** Every character \s matches but the space, and its neighbours that it does not. */
const SPACE_AND_NEIGHBOURS = [
  ...'\t\n\v\f\r\u0008\u000e\u001f\u0085\u00a0\u1680\u180e\u2000\u2001\u2005\u200a\u200b\u2028\u2029\u202f\u205f\u3000\ufeff',
];

describe('clip', () => {
  it('equals folding the whole text, for texts of words and long whitespace runs', () => {
    const piece = fc.oneof(
      fc.string({ minLength: 1, maxLength: 12 }),
      fc.constantFrom(' ', '\n', '\t \n', ' '.repeat(50), '\n'.repeat(300), '\u00a0', '\v\f\r', '\u2028', '\u3000'),
      // every character \s matches, and its neighbours that it does not
      fc.constantFrom(...SPACE_AND_NEIGHBOURS),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 120 }), fc.integer({ min: 2, max: 300 }), (parts, max) => {
        const s = parts.join('');
        expect(clip(s, max)).toBe(clipWhole(s, max));
      }),
      { numRuns: 500 },
    );
  });

  it('equals folding the whole text, for words one space apart with other whitespace about the cut', () => {
    // the texts clip cuts as they are, but for one run of whitespace (or a neighbour of one) placed around `max`
    const ws = fc.oneof(fc.constantFrom(' ', '  ', ' \n', '\u3000 '), fc.constantFrom(...SPACE_AND_NEIGHBOURS));
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-z.,]{1,6}$/), { minLength: 1, maxLength: 40 }),
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: -3, max: 3 }),
        ws,
        fc.boolean(),
        (words, max, off, run, trailing) => {
          const plain = words.join(' ');
          const at = Math.max(0, Math.min(plain.length, max + off));
          const s = `${plain.slice(0, at)}${run}${plain.slice(at)}${trailing ? ' ' : ''}`;
          expect(clip(s, max)).toBe(clipWhole(s, max));
        },
      ),
      { numRuns: 2000 },
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

describe('planSummary', () => {
  it('numbers open steps by the index the tools take and says how many more are open', () => {
    const steps = ['a', 'b', 'c', 'd', 'e', 'f'].map((text, i) => ({ text, status: i === 0 ? 'done' : 'todo' }));
    const plan = planSummary({ status: 'active', steps: steps as never });
    expect(nextText(plan)).toBe(' Next: #1 b; #2 c; #3 d; +2 more.');
    expect(nextText(planSummary({ status: 'active', steps: steps.slice(0, 3) as never }))).toBe(' Next: #1 b; #2 c.');
    expect(nextText(planSummary({ status: 'done', steps: [] }))).toBe('');
  });
});
