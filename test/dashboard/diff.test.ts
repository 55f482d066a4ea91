/** The word diff of an entry's versions (src/dashboard/diff.ts), without a server. */
import { describe, expect, it } from 'vitest';
import { diffWords } from '../../src/dashboard/diff';

/** The parts joined back: the older text (no insertions), or the newer (no deletions). */
const side = (parts: ReturnType<typeof diffWords>, drop: 'ins' | 'del') =>
  parts
    .filter((p) => p.op !== drop)
    .map((p) => p.text)
    .join('');

describe('word diff', () => {
  it('marks an inserted word and keeps the rest as it was', () => {
    expect(diffWords('Deploys run on Tuesdays.', 'Deploys run early on Tuesdays.')).toEqual([
      { op: 'same', text: 'Deploys run ' },
      { op: 'ins', text: 'early ' },
      { op: 'same', text: 'on Tuesdays.' },
    ]);
  });

  it('marks a replaced word as removed then inserted', () => {
    expect(diffWords('Deploys run on Tuesdays.', 'Deploys run on Thursdays.')).toEqual([
      { op: 'same', text: 'Deploys run on ' },
      { op: 'del', text: 'Tuesdays' },
      { op: 'ins', text: 'Thursdays' },
      { op: 'same', text: '.' },
    ]);
    // punctuation is a token of its own: the word before it is kept
    expect(diffWords('computes Bernoulli numbers.', 'computes Bernoulli numbers from cards.')).toEqual([
      { op: 'same', text: 'computes Bernoulli numbers' },
      { op: 'ins', text: ' from cards' },
      { op: 'same', text: '.' },
    ]);
  });

  it('joins a change of several words into one removal and one insertion', () => {
    expect(diffWords('keep a b c keep', 'keep x y z keep')).toEqual([
      { op: 'same', text: 'keep ' },
      { op: 'del', text: 'a b c' },
      { op: 'ins', text: 'x y z' },
      { op: 'same', text: ' keep' },
    ]);
  });

  it('finds words kept between changes, and gives back both texts exactly', () => {
    const before = 'The cache lives on disk two,\nbehind the build host.';
    const after = 'The build cache lives on disk three,\nbehind the host.';
    const parts = diffWords(before, after);
    expect(side(parts, 'ins')).toBe(before);
    expect(side(parts, 'del')).toBe(after);
    expect(parts.filter((p) => p.op === 'same').map((p) => p.text.trim())).toEqual([
      'The',
      'cache lives on disk',
      ',\nbehind the',
      'host.',
    ]);
  });

  it('handles empty sides and equal texts', () => {
    expect(diffWords('', 'new words')).toEqual([{ op: 'ins', text: 'new words' }]);
    expect(diffWords('old words', '')).toEqual([{ op: 'del', text: 'old words' }]);
    expect(diffWords('same', 'same')).toEqual([{ op: 'same', text: 'same' }]);
  });

  it('shows a change too large to align as removed and inserted whole, quickly', () => {
    const before = Array.from({ length: 3000 }, (_, i) => `a${i}`).join(' ');
    const after = Array.from({ length: 3000 }, (_, i) => `b${i}`).join(' ');
    const t0 = performance.now();
    const parts = diffWords(before, after);
    expect(performance.now() - t0).toBeLessThan(500);
    expect(parts.map((p) => p.op)).toEqual(['del', 'ins']);
  });
});
