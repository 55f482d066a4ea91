/**
 * Password hashing with PBKDF2-HMAC-SHA-256 through WebCrypto, which Node and Workers both have
 * (Workers offer no scrypt or Argon2). 100,000 iterations: the most Workers' PBKDF2 accepts. A
 * 16-byte random salt per password; stored as `pbkdf2-sha256$<iterations>$<salt>$<hash>`.
 */
const ITERATIONS = 100_000;

export function b64url(bytes: Uint8Array): string {
  let s = '';
  for (const b of bytes) s += String.fromCharCode(b);
  return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromB64url(s: string): Uint8Array<ArrayBuffer> {
  const bin = atob(s.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha256$${ITERATIONS}$${b64url(salt)}$${b64url(await derive(password, salt, ITERATIONS))}`;
}

/** Whether the password matches; compares in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split('$');
  if (scheme !== 'pbkdf2-sha256' || !iterations || !salt || !hash) return false;
  const got = await derive(password, fromB64url(salt), Number(iterations));
  const want = fromB64url(hash);
  let diff = got.length ^ want.length;
  for (let i = 0; i < got.length; i++) diff |= (got[i] as number) ^ (want[i] ?? 0);
  return diff === 0;
}

/** A random token, base64url (session tokens, form tokens). */
export function randomToken(bytes = 32): string {
  return b64url(crypto.getRandomValues(new Uint8Array(bytes)));
}
