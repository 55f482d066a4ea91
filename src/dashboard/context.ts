/** What every part of the dashboard is given: its dependencies, each request's variables, and form reading. */
import type { Context } from 'hono';
import type { SetupLinks } from '../auth/setup';
import type { BlobStore, DashboardSession, Store } from '../domain/ports';
import type { FailureLimiter } from '../http/failures';
import type { MetadataFetch } from '../oauth/clients';

export interface DashboardDeps {
  store: Store;
  blobs: BlobStore;
  /** CAIRN_BASE_URL, if set; else the request's origin. */
  publicUrl: string | undefined;
  /** The authorization server's settings: the consent step is the dashboard's. */
  oauth: { fetchMetadata: MetadataFetch };
  signupOpen: boolean;
  /** The first start's setup link, if this server printed one (pages/setup.tsx). */
  setup?: SetupLinks | undefined;
  log: (message: string, err?: unknown) => void;
  failures: FailureLimiter;
  /** Sign-ups, each counted per address (http/failures.ts, door `signup`). */
  creations: FailureLimiter;
  addressOf: (c: Context) => string;
}

interface Variables {
  /** The nonce of this response's style sheet and script (src/dashboard/headers.ts). */
  nonce: string;
  /** A source the page's forms may post to besides the dashboard (the consent page's redirect). */
  formTarget?: string;
  /** Whether the dashboard is reached over HTTPS: its cookies are then Secure. */
  https: boolean;
  /** The signed-in session, if any, and the hash its token is stored under (src/dashboard/session.ts). */
  session: DashboardSession | null;
  tokenHash: string;
}

/** Every dashboard request. */
export type DashboardEnv = { Variables: Variables };
/** A request that the `signedIn` middleware let through. */
export type SignedInEnv = { Variables: Variables & { session: DashboardSession } };

/** The posted form's text fields ('' for a missing one); the body is read once and cached by Hono. */
export async function formOf(c: Context): Promise<(name: string) => string> {
  const body = await c.req.parseBody();
  return (name) => {
    const value = body[name];
    return typeof value === 'string' ? value : '';
  };
}

/** The answer to anyone who must sign in first. */
export const toSignIn = (c: Context) => c.redirect('/dashboard/signin', 303);
