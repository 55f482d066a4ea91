/**
 * OAuth credentials. Codes, access and refresh tokens are 256-bit random strings, stored only as
 * SHA-256. An access token names its client (`cat_<base64url client_id>.<secret>`) so that /mcp
 * can take the client as the default agent before the database is asked; its stored hash covers
 * the resource it was issued for, so the same token presented to another resource matches nothing.
 */
import { b64url, fromB64url, randomToken, sha256Hex } from '../domain/crypto';

/** The one scope the service grants: the org's memory. */
export const SCOPE = 'memory';
const ACCESS_RE = /^cat_([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/;

const encoder = new TextEncoder();

/** A new access token for the client. */
export function newAccessToken(clientId: string): string {
  return `cat_${b64url(encoder.encode(clientId))}.${randomToken()}`;
}

/** The client an access token names, or null when it is not shaped like one of ours. */
export function accessTokenClient(token: string): string | null {
  const m = ACCESS_RE.exec(token);
  if (!m) return null;
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(fromB64url(m[1] as string));
  } catch {
    return null;
  }
}

/** What an access token is stored under: bound to its resource. */
export function accessTokenHash(resource: string, token: string): Promise<string> {
  return sha256Hex(`${resource}\n${token}`);
}

/** A code or refresh token. */
export const newOpaqueToken = () => randomToken();
/** What a code, refresh token or client secret is stored under. */
export const opaqueHash = (token: string) => sha256Hex(token);

/** PKCE S256: base64url(SHA-256(verifier)). */
export async function s256(verifier: string): Promise<string> {
  return b64url(new Uint8Array(await crypto.subtle.digest('SHA-256', encoder.encode(verifier))));
}
