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
/** Each ASCII code's 6-bit value in standard base64, -1 for any other character. */
const BASE64_VALUE = Int8Array.from({ length: 128 }, (_, c) => BASE64_ALPHABET.indexOf(String.fromCharCode(c)));
/** ASCII whitespace, which base64 wrapped in lines (MIME, PEM) carries between its characters. */
const isSpace = (c: number) => c === 32 || (c >= 9 && c <= 13);

/**
 * The bytes of standard base64 (RFC 4648 §4: A–Z, a–z, 0–9, +, /, `=` padding to a multiple of
 * four), ASCII whitespace ignored; null when it is not base64. Two linear scans and no regular
 * expression, so the input's length is bounded by the request body only (a backtracking pattern
 * overflowed the stack past ~4.2 million characters).
 */
export function base64ToBytes(s: string): Uint8Array | null {
  let chars = 0;
  let pad = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (isSpace(c)) continue;
    if (c === 61)
      pad++; // '='
    else if (pad > 0 || c > 127 || (BASE64_VALUE[c] as number) < 0) return null;
    else chars++;
  }
  if (pad > 2 || (chars + pad) % 4 !== 0) return null;
  const out = new Uint8Array((chars * 3) >> 2);
  let acc = 0;
  let bits = 0;
  let j = 0;
  for (let i = 0; i < s.length && j < out.length; i++) {
    const v = BASE64_VALUE[s.charCodeAt(i)] ?? -1;
    if (v < 0) continue; // whitespace (padding comes last)
    acc = ((acc << 6) | v) & 0xffffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[j++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

/** Byte length of a string in UTF-8. */
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}
