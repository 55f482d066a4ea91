/**
 * The brief's words (src/domain/brief.ts): an entry's words as numbers, and the index of the
 * words of the lines chosen so far, which tells whether a candidate says the same as one of them.
 */
import type { BriefEntry } from './operations';

/** Two entries whose words overlap this much say the same thing; the brief keeps the first. */
const SAME = 0.6;

/**
 * An entry's words of three letters or more, lower-cased, each as a number (wordKey), each once,
 * sorted. An ASCII text, what most are, is read a character at a time: its words are runs of
 * [A-Za-z0-9_], keyed as they are read, with no string made for them. Any other text (the read
 * stops at its first character past ASCII) takes a regular expression with Unicode classes over
 * its lower-cased copy, and keys the words it finds the same way.
 */
export function words(e: Pick<BriefEntry, 'title' | 'content'>): Float64Array {
  const title = e.title ?? '';
  const out = scratch;
  out.n = 0;
  if (!asciiWords(title, out) || !asciiWords(e.content, out)) {
    out.n = 0;
    for (const w of `${title} ${e.content}`.toLowerCase().match(/[\p{L}\p{N}_]{3,}/gu) ?? []) out.push(wordKey(w));
  }
  return out.a.slice(0, out.unique());
}

/** A growing list of word keys held in a typed array: no number boxed, nothing allocated per word. */
class Keys {
  n = 0;
  a = new Float64Array(256);

  push(k: number): void {
    if (this.n === this.a.length) {
      const grown = new Float64Array(this.a.length * 2);
      grown.set(this.a);
      this.a = grown;
    }
    this.a[this.n++] = k;
  }

  /** Sorts the keys and keeps each once; returns how many there are. */
  unique(): number {
    const a = this.a.subarray(0, this.n).sort();
    let m = 0;
    for (let i = 0; i < a.length; i++) if (m === 0 || a[i] !== a[m - 1]) a[m++] = a[i] as number;
    this.n = m;
    return m;
  }
}

/**
 * A word as a number of 53 bits, from two 32-bit hashes of its UTF-16 code units (FNV-1a and a
 * multiply-xorshift), so the brief compares numbers, made and looked up without allocating a
 * string, instead of words. Two of a brief's few thousand words share a key with a chance below
 * one in a billion; if they did, two entries would look a word closer than they are.
 */
const H1 = 0x811c9dc5;
const H2 = 0x9747b28c;
const step1 = (h: number, c: number) => Math.imul(h ^ c, 0x01000193);
const step2 = (h: number, c: number) => {
  const m = Math.imul(h ^ c, 0x5bd1e995);
  return m ^ (m >>> 15);
};
const key = (h1: number, h2: number) => (h1 >>> 0) * 0x200000 + (h2 >>> 11);

function wordKey(w: string): number {
  let h1 = H1;
  let h2 = H2;
  for (let i = 0; i < w.length; i++) {
    const c = w.charCodeAt(i);
    h1 = step1(h1, c);
    h2 = step2(h2, c);
  }
  return key(h1, h2);
}

/**
 * The words of an ASCII text as `\w{3,}` finds them in its lower-cased copy, keyed as wordKey keys
 * them; false, with some words pushed, at its first character past ASCII.
 */
function asciiWords(text: string, out: Keys): boolean {
  let h1 = H1;
  let h2 = H2;
  let run = 0;
  for (let i = 0; i <= text.length; i++) {
    let c = i < text.length ? text.charCodeAt(i) : 32;
    if (c > 127) return false;
    if (c >= 65 && c <= 90) c += 32;
    if ((c >= 97 && c <= 122) || (c >= 48 && c <= 57) || c === 95) {
      h1 = step1(h1, c);
      h2 = step2(h2, c);
      run++;
    } else if (run > 0) {
      if (run >= 3) out.push(key(h1, h2));
      h1 = H1;
      h2 = H2;
      run = 0;
    }
  }
  return true;
}

/**
 * The words of the lines chosen so far, indexed by word: whether a candidate says the same as one
 * of them (word overlap, Jaccard, at least SAME; entries of fewer than four words are the same only
 * when equal) is counted from the index, one look-up per word of the candidate, instead of a
 * look-up per word of every chosen line. The index is a hash table of the word keys with, for each
 * word, a chain of the lines that have it, all in typed arrays: a brief's few thousand words make
 * no object each (a Map of lists made one list and one boxed number per word, a third of a brief's
 * garbage).
 */
export class ChosenWords {
  private readonly sizes: number[] = [];
  private mask = 1023;
  /** Per slot of the table: its word's key, and its chain's first posting (-1: an empty slot). */
  private slotKey = new Float64Array(1024);
  private slotHead = new Int32Array(1024).fill(-1);
  private used = 0;
  /** Per posting: its line, and the next posting of the same word (-1: the chain's end). */
  private postLine = new Int32Array(1024);
  private postNext = new Int32Array(1024);
  private posts = 0;
  /** Per chosen line, the words a candidate shares with it (zeroed after each count). */
  private shared = new Int32Array(64);

  /** No line chosen: the index of a new brief (its arrays kept from the last, at their size). */
  clear(): void {
    this.sizes.length = 0;
    this.slotHead.fill(-1);
    this.used = 0;
    this.posts = 0;
  }

  /** Whether the words `w` (each once) say the same as a chosen line. */
  repeats(w: Float64Array): boolean {
    const n = w.length;
    const lines = this.sizes.length;
    if (this.shared.length < lines) this.shared = new Int32Array(lines * 2);
    const shared = this.shared;
    for (let i = 0; i < n; i++) {
      const s = this.slot(w[i] as number);
      for (let p = this.slotHead[s] as number; p >= 0; p = this.postNext[p] as number) {
        const line = this.postLine[p] as number;
        shared[line] = (shared[line] as number) + 1;
      }
    }
    let found = false;
    for (let j = 0; j < lines; j++) {
      if (!found && same(n, this.sizes[j] as number, shared[j] as number)) found = true;
      shared[j] = 0;
    }
    return found;
  }

  add(w: Float64Array): void {
    const n = w.length;
    const line = this.sizes.push(n) - 1;
    if (2 * (this.used + n) > this.mask) this.grow(this.used + n);
    if (this.posts + n > this.postLine.length) {
      const size = 2 * (this.posts + n);
      this.postLine = grown(this.postLine, size);
      this.postNext = grown(this.postNext, size);
    }
    for (let i = 0; i < n; i++) {
      const k = w[i] as number;
      const s = this.slot(k);
      if (this.slotHead[s] === -1) {
        this.slotKey[s] = k;
        this.used++;
      }
      this.postLine[this.posts] = line;
      this.postNext[this.posts] = this.slotHead[s] as number;
      this.slotHead[s] = this.posts++;
    }
  }

  /** The slot of key `k`: where it is, or the empty one where it would go (linear probing). */
  private slot(k: number): number {
    let s = (k % 0x200000) & this.mask;
    while (this.slotHead[s] !== -1 && this.slotKey[s] !== k) s = (s + 1) & this.mask;
    return s;
  }

  /** A table at least twice as large as `words`, the words put back in their slots. */
  private grow(words: number): void {
    const keys = this.slotKey;
    const heads = this.slotHead;
    let size = this.mask + 1;
    while (size < 2 * words + 2) size *= 2;
    this.mask = size - 1;
    this.slotKey = new Float64Array(size);
    this.slotHead = new Int32Array(size).fill(-1);
    for (let s = 0; s < heads.length; s++) {
      if (heads[s] === -1) continue;
      const to = this.slot(keys[s] as number);
      this.slotKey[to] = keys[s] as number;
      this.slotHead[to] = heads[s] as number;
    }
  }
}

/** Words are read start to end without a pause, so one list serves every entry. */
const scratch = new Keys();

function grown(a: Int32Array, size: number): Int32Array<ArrayBuffer> {
  const b = new Int32Array(size);
  b.set(a);
  return b;
}

/** Two sets of `a` and `b` words sharing `both` say the same. */
function same(a: number, b: number, both: number): boolean {
  if (a < 4 || b < 4) return a === b && both === a;
  return both / Math.max(1, a + b - both) >= SAME;
}
