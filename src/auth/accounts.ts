/**
 * Dashboard accounts: the rules of an email and a password, shared by the dashboard's forms and
 * `cairn user create`, and how a password is kept.
 *
 * Passwords are hashed with PBKDF2-HMAC-SHA-256 through WebCrypto, which Node and Workers both
 * have (Workers offer no scrypt or Argon2). 100,000 iterations: the most Workers' PBKDF2 accepts.
 * A 16-byte random salt per password; stored as `pbkdf2-sha256$<iterations>$<salt>$<hash>`.
 */
import { b64url, fromB64url, sameBytes } from '../domain/crypto';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ITERATIONS = 100_000;

/** The email as stored (trimmed, lower-cased), or null when it is not an address. */
export function normaliseEmail(input: string): string | null {
  const email = input.trim().toLowerCase();
  return EMAIL_RE.test(email) && email.length <= 254 ? email : null;
}

/** The password rule, as the forms and the CLI say it. */
export const PASSWORD_RULE = 'a password of 12 to 1024 characters';

/** Whether a new password follows PASSWORD_RULE. */
export function passwordOk(password: string): boolean {
  return password.length >= 12 && password.length <= 1024;
}

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(password), 'PBKDF2', false, ['deriveBits']);
  const bits = await crypto.subtle.deriveBits({ name: 'PBKDF2', hash: 'SHA-256', salt, iterations }, key, 256);
  return new Uint8Array(bits);
}

/** The password's stored form, with a fresh salt. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  return `pbkdf2-sha256$${ITERATIONS}$${b64url(salt)}$${b64url(await derive(password, salt, ITERATIONS))}`;
}

/** Whether the password matches its stored form; compares in constant time. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, iterations, salt, hash] = stored.split('$');
  if (scheme !== 'pbkdf2-sha256' || !iterations || !salt || !hash) return false;
  return sameBytes(await derive(password, fromB64url(salt), Number(iterations)), fromB64url(hash));
}
