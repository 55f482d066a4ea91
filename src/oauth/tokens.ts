/**
 * OAuth credentials. Codes, access and refresh tokens are 256-bit random strings, stored only as
 * SHA-256. An access token names its client (`cat_<base64url client_id>.<secret>`) so that /mcp
 * can take the client as the default agent before the database is asked; its stored hash covers
 * the resource it was issued for, so the same token presented to another resource matches nothing.
 */
import { b64url, randomToken } from '../dashboard/password';
import { sha256Hex } from '../domain/hash';

export const SCOPE = 'memory';
const ACCESS_RE = /^cat_([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/;

const encoder = new TextEncoder();

function fromB64url(s: string): string | null {
  try {
    const bin = atob(s.replaceAll('-', '+').replaceAll('_', '/'));
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(
      Uint8Array.from(bin, (c) => c.charCodeAt(0)),
    );
  } catch {
    return null;
  }
}

export function newAccessToken(clientId: string): string {
  return `cat_${b64url(encoder.encode(clientId))}.${randomToken()}`;
}

/** The client an access token names, or null when it is not shaped like one of ours. */
export function accessTokenClient(token: string): string | null {
  const m = ACCESS_RE.exec(token);
  return m ? fromB64url(m[1] as string) : null;
}

/** What an access token is stored under: bound to its resource. */
export function accessTokenHash(resource: string, token: string): Promise<string> {
  return sha256Hex(`${resource}\n${token}`);
}

export const newOpaqueToken = () => randomToken();
export const opaqueHash = (token: string) => sha256Hex(token);

/** PKCE S256: base64url(SHA-256(verifier)). */
export async function s256(verifier: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(verifier))));
}

/** Constant-time comparison of two secrets, through their SHA-256 digests. */
export async function sameSecret(a: string, b: string): Promise<boolean> {
  const [da, db] = await Promise.all([
    crypto.subtle.digest('SHA-256', encoder.encode(a)),
    crypto.subtle.digest('SHA-256', encoder.encode(b)),
  ]);
  const x = new Uint8Array(da);
  const y = new Uint8Array(db);
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}
