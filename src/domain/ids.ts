/**
 * A UUIDv7: 48 bits of Unix milliseconds, then random bits; ids sort by creation time. Within one
 * process they are strictly increasing (RFC 9562, monotonic random): an id made in the same
 * millisecond as the previous one, or while the clock stands behind it, is the previous one plus a
 * random step in its low 56 bits. Recall takes the order of ids as the order memories were written.
 */
let last: Uint8Array | undefined;
let lastMs = -1;

/** Two hex digits of each byte value. */
const HEX = Array.from({ length: 256 }, (_, b) => b.toString(16).padStart(2, '0'));

/**
 * Random bytes from the platform's generator, drawn 1 KiB at a time: one call for 64 ids instead of
 * one an id (the call and the id's formatting were most of the 4.7 µs an id cost, a tenth of a
 * write's own code). Each byte is used once.
 */
const pool = new Uint8Array(1024);
let poolAt = pool.length;

export function uuidv7(now: number = Date.now()): string {
  if (poolAt + 16 > pool.length) {
    crypto.getRandomValues(pool);
    poolAt = 0;
  }
  const bytes = pool.slice(poolAt, poolAt + 16);
  poolAt += 16;
  if (last && now <= lastMs && increment(last, bytes)) {
    bytes.set(last);
  } else {
    lastMs = Math.max(now, lastMs + 1);
    let ms = lastMs;
    for (let i = 5; i >= 0; i--) {
      bytes[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x70;
    bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80;
    last = bytes; // this call's own copy of the pool's bytes, read only for the id below
  }
  let id = '';
  for (let i = 0; i < 16; i++) {
    id += HEX[bytes[i] as number];
    if (i === 3 || i === 5 || i === 7 || i === 9) id += '-';
  }
  return id;
}

/** Adds a random step of 1..2^24 to bytes 9..15 of `id`; false when that would overflow them. */
function increment(id: Uint8Array, random: Uint8Array): boolean {
  const next = id.slice();
  let carry = 1 + (((random[0] ?? 0) << 16) | ((random[1] ?? 0) << 8) | (random[2] ?? 0));
  for (let i = 15; i >= 9 && carry > 0; i--) {
    const sum = (next[i] ?? 0) + carry;
    next[i] = sum % 256;
    carry = Math.floor(sum / 256);
  }
  if (carry > 0) return false;
  id.set(next);
  return true;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * An entry's handle: the last 8 hex digits of its id (random bits), which the brief shows and the
 * tools take in its place (sql/entries/cairn_entry_ref.sql; docs/design.md, "Handles").
 */
export const handleOf = (id: string): string => id.slice(-8);

/** An entry named by a tool's argument: its id, or its handle (any case). */
export const ENTRY_REF_RE = /^(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{8})$/i;
