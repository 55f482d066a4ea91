/** API keys: `svc_` + 40 random base62 characters, shown once, stored only as SHA-256. */
import { sha256Hex } from '../domain/crypto';
import { uuidv7 } from '../domain/ids';
import type { NewKey } from '../domain/ports';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const SECRET_LENGTH = 40;
/** The shape of an API key; anything else is refused before the database is asked. */
export const KEY_RE = /^svc_[0-9A-Za-z]{32,128}$/;

/** A new key's secret: `svc_` and 40 base62 characters, rejection-sampled (no bias). */
export function generateSecret(): string {
  const out: string[] = [];
  while (out.length < SECRET_LENGTH) {
    const bytes = new Uint8Array(64);
    crypto.getRandomValues(bytes);
    for (const b of bytes) {
      if (b < 248 && out.length < SECRET_LENGTH) out.push(ALPHABET[b % 62] as string); // 248 = 4 × 62: no bias
    }
  }
  return `svc_${out.join('')}`;
}

/** A new key: the secret to show once, and what is stored. */
export async function newKey(name: string, agent: string | null = null): Promise<{ secret: string; key: NewKey }> {
  const secret = generateSecret();
  return { secret, key: { id: uuidv7(), hash: await sha256Hex(secret), prefix: secret.slice(0, 8), name, agent } };
}

/** What a key is stored and looked up under. */
export function hashKey(secret: string): Promise<string> {
  return sha256Hex(secret);
}
