/**
 * What changed between two versions of an entry's content, word by word: the longest common
 * subsequence of their words (whitespace and punctuation kept as tokens of their own, so the text
 * reads as written and a word is not changed by the comma after it),
 * after the common beginning and end are set aside. Past a size where the table would cost too
 * much, the middle is shown as removed and inserted whole.
 */

/** A run of text both versions share, or that only the older (`del`) or the newer (`ins`) has. */
export interface DiffPart {
  op: 'same' | 'del' | 'ins';
  text: string;
}

/** Cells of the LCS table at most (about 4 MB as 16-bit lengths). */
const MAX_CELLS = 2_000_000;

/** Words, runs of whitespace, and each other character (punctuation) on its own, in order. */
export function tokens(text: string): string[] {
  return text.match(/\s+|[\p{L}\p{N}\p{M}_]+|[^\s\p{L}\p{N}\p{M}_]/gu) ?? [];
}

/** The word-level changes from `before` to `after`, adjacent parts of one kind merged. */
export function diffWords(before: string, after: string): DiffPart[] {
  const a = tokens(before);
  const b = tokens(after);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) start++;
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
  }
  const parts: DiffPart[] = [];
  push(parts, 'same', a.slice(0, start));
  middle(parts, a.slice(start, endA), b.slice(start, endB));
  push(parts, 'same', a.slice(endA));
  return tidy(parts);
}

/**
 * Reads better: a change of several words is one removal and one insertion, not words interleaved
 * with the spaces they happen to share (whitespace alone between two changes joins them).
 */
function tidy(parts: DiffPart[]): DiffPart[] {
  const out: DiffPart[] = [];
  let del = '';
  let ins = '';
  const flush = () => {
    if (del) out.push({ op: 'del', text: del });
    if (ins) out.push({ op: 'ins', text: ins });
    del = '';
    ins = '';
  };
  parts.forEach((p, k) => {
    const between = p.op === 'same' && /^\s+$/.test(p.text) && (del || ins) && k + 1 < parts.length;
    if (p.op === 'del' || between) del += p.text;
    if (p.op === 'ins' || between) ins += p.text;
    if (p.op === 'same' && !between) {
      flush();
      out.push(p);
    }
  });
  flush();
  return out;
}

/** The changes between two token lists with nothing in common at either end. */
function middle(parts: DiffPart[], a: string[], b: string[]) {
  const n = a.length;
  const m = b.length;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) {
    push(parts, 'del', a);
    push(parts, 'ins', b);
    return;
  }
  // lcs[i * (m + 1) + j]: the longest common subsequence of a[i..] and b[j..]
  const w = m + 1;
  const lcs = new Uint32Array((n + 1) * w);
  for (let i = n - 1; i >= 0; i--) {
    for (let j = m - 1; j >= 0; j--) {
      lcs[i * w + j] =
        a[i] === b[j]
          ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1
          : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  let i = 0;
  let j = 0;
  while (i < n && j < m) {
    if (a[i] === b[j]) {
      push(parts, 'same', [a[i++] as string]);
      j++;
    } else if ((lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0)) {
      push(parts, 'del', [a[i++] as string]);
    } else {
      push(parts, 'ins', [b[j++] as string]);
    }
  }
  push(parts, 'del', a.slice(i));
  push(parts, 'ins', b.slice(j));
}

/** Appends tokens as a part of kind `op`, joined to the last part when it is of the same kind. */
function push(parts: DiffPart[], op: DiffPart['op'], words: string[]) {
  if (words.length === 0) return;
  const text = words.join('');
  const last = parts.at(-1);
  if (last?.op === op) last.text += text;
  else parts.push({ op, text });
}
