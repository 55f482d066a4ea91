/**
 * The service's crypto helpers, in one place: SHA-256, random tokens, constant-time comparison,
 * and the byte encodings they are written in. WebCrypto, and node:crypto's hash (Workers have it
 * with nodejs_compat), so the same on Node and Workers.
 */
import * as nodeCrypto from 'node:crypto';

const encoder = new TextEncoder();

type OneShot = (algorithm: string, data: string | Uint8Array, encoding: 'hex') => string;
/** node:crypto's one-shot `hash` (Node 21.7+), where the runtime has it: no Hash object per digest. */
const oneShot = (nodeCrypto as { hash?: OneShot }).hash;

/**
 * SHA-256 of UTF-8 text or bytes, as lower-case hex. Synchronous underneath: every request hashes
 * its key, and WebCrypto's digest costs a trip through Node's thread pool (≈ 0.2 ms of CPU).
 */
export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  return oneShot ? oneShot('sha256', input, 'hex') : nodeCrypto.createHash('sha256').update(input).digest('hex');
}

/** A random token of `bytes` random bytes, base64url (session, form and OAuth tokens). */
export function randomToken(bytes = 32): string {
  return b64url(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** Whether two byte strings are equal, in time that depends on their length only. */
export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  let diff = a.length ^ b.length;
  for (let i = 0; i < a.length; i++) diff |= (a[i] as number) ^ (b[i] ?? 0);
  return diff === 0;
}

/** Constant-time comparison of two secrets, through their SHA-256 digests (so their lengths leak nothing). */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(a)),
    crypto.subtle.digest('SHA-256', encoder.encode(b)),
  ]);
  return sameBytes(new Uint8Array(da), new Uint8Array(db));
}

/** base64url of bytes, unpadded (RFC 4648 §5). */
export function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** The bytes of a base64url string; throws when it is not one. */
export function fromB64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

/** Base64 of bytes, without Node's Buffer (the same on Workers). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}

const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** Each Latin-1 code's 6-bit value in standard base64, -1 for any other character. */
const BASE64_VALUE = Int8Array.from({ length: 256 }, (_, c) => BASE64_ALPHABET.indexOf(String.fromCharCode(c)));

/**
 * The bytes of standard base64 (RFC 4648 §4: A–Z, a–z, 0–9, +, /, `=` padding to a multiple of
 * four), ASCII whitespace between characters ignored (base64 wrapped in lines); null when it is
 * not base64. One linear scan that checks and decodes, and no regular expression, so its length
 * is bounded by the request body only (a backtracking pattern overflowed the stack past ~4.2
 * million characters).
 */
export function base64ToBytes(s: string): Uint8Array | null {
  const out = new Uint8Array(((s.length + 3) >> 2) * 3);
  let acc = 0; // the bits of the group being read
  let n = 0; // its characters so far
  let j = 0;
  let pad = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    const v = c < 256 ? (BASE64_VALUE[c] as number) : -1;
    if (v >= 0) {
      if (pad > 0) return null; // data after padding
      acc = (acc << 6) | v;
      if (++n === 4) {
        out[j] = acc >> 16;
        out[j + 1] = (acc >> 8) & 0xff;
        out[j + 2] = acc & 0xff;
        j += 3;
        n = 0;
        acc = 0;
      }
    } else if (c === 61)
      pad++; // '='
    else if (!(c === 32 || (c >= 9 && c <= 13))) return null;
  }
  // a last group of two or three characters comes padded to four, and nothing else is padded
  if (pad > 2 || (n + pad) % 4 !== 0) return null;
  if (n === 2) out[j++] = acc >> 4;
  else if (n === 3) {
    out[j] = acc >> 10;
    out[j + 1] = (acc >> 2) & 0xff;
    j += 2;
  }
  return j === out.length ? out : out.slice(0, j);
}

/** Byte length of a string in UTF-8. */
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}
