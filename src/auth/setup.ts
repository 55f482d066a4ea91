/**
 * The first start's setup link (docs/design.md, "First start"): `/dashboard/setup?token=…`, which
 * lets the person who started the server make the account that owns the org `default` (the one
 * the printed key belongs to). The token is 256 random bits, printed once; the server keeps only
 * its SHA-256, the org and an expiry (24 hours), in memory — handed to worker processes, never
 * written anywhere. It opens nothing once used, once expired, or after a restart (which prints a
 * new link while the org still has no owner); the database refuses a second owner whatever
 * process holds the link (cairn_dash_setup).
 */
import { randomToken, sameSecret, sha256Hex } from '../domain/crypto';
import { UUID_RE } from '../domain/ids';

export const SETUP_LINK_SECONDS = 24 * 3600;

/** What the server keeps of a link: no secret. */
export interface SetupInvite {
  orgId: string;
  /** SHA-256 (hex) of the token. */
  hash: string;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

export interface SetupLinks {
  /** A new link's token for the org (an earlier link stops working); shown once, never kept. */
  mint(orgId: string, now?: number): Promise<string>;
  /** The org a token opens: the current link's, until it expires or is used; else null. */
  open(token: string, now?: number): Promise<string | null>;
  /** The link was used (or its org has an owner): it opens nothing any more. */
  spend(): void;
  /** The current link, to hand to worker processes. */
  current(): SetupInvite | null;
}

/** The process's setup link; `initial`: one the primary process made (serialised by `current`). */
export function setupLinks(initial: SetupInvite | null = null): SetupLinks {
  let invite = initial;
  return {
    async mint(orgId, now = Date.now()) {
      const token = randomToken(32);
      invite = { orgId, hash: await sha256Hex(token), expiresAt: now + SETUP_LINK_SECONDS * 1000 };
      return token;
    },
    async open(token, now = Date.now()) {
      const held = invite;
      if (!held || !token || now >= held.expiresAt) return null;
      return (await sameSecret(await sha256Hex(token), held.hash)) ? held.orgId : null;
    },
    spend() {
      invite = null;
    },
    current: () => invite,
  };
}

/** A link handed over as JSON (the environment of a worker process); anything malformed is none. */
export function parseSetupInvite(text: string | undefined): SetupInvite | null {
  if (!text) return null;
  try {
    const v = JSON.parse(text) as Partial<SetupInvite>;
    if (
      typeof v.orgId === 'string' &&
      UUID_RE.test(v.orgId) &&
      typeof v.hash === 'string' &&
      /^[0-9a-f]{64}$/.test(v.hash)
    ) {
      if (typeof v.expiresAt === 'number') return { orgId: v.orgId, hash: v.hash, expiresAt: v.expiresAt };
    }
  } catch {}
  return null;
}
