/**
 * OAuth clients: redirect URI rules, dynamic registration (RFC 7591) and client ID metadata
 * documents (a client_id that is an https URL whose document describes the client).
 */
import { z } from 'zod';
import type { OAuthClient, Store } from '../domain/ports';
import { readCapped } from '../http/body';
import { isIpLiteral, isLocalHostName, isPublicAddress } from './addresses';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Why a redirect URI is refused, or null. https anywhere; http only to this machine (a native
 * app's loopback listener); otherwise a private-use scheme named after a domain, such as
 * `com.example.app:/callback` (RFC 8252). No fragment, no credentials.
 */
export function redirectUriProblem(uri: string): string | null {
  const u = URL.parse(uri);
  if (!u) return `${uri.slice(0, 100)} is not an absolute URI`;
  if (u.hash || uri.includes('#')) return 'a redirect URI has no fragment';
  if (u.username || u.password) return 'a redirect URI carries no user name or password';
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:') {
    return LOOPBACK.has(u.hostname) ? null : 'http redirect URIs must point at this machine (localhost); use https';
  }
  const scheme = u.protocol.slice(0, -1);
  if (!/^[a-z][a-z0-9+-]*(\.[a-z0-9+-]+)+$/.test(scheme)) {
    return `the scheme "${scheme}:" is not allowed: use https, http on localhost, or a private-use scheme named after a domain you own (com.example.app:)`;
  }
  return null;
}

const redirectUris = z
  .array(z.string().max(2000))
  .min(1, 'at least one redirect URI')
  .max(20)
  .superRefine((uris, ctx) => {
    for (const uri of uris) {
      const problem = redirectUriProblem(uri);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }
  });

/** A dynamic registration request (RFC 7591); other metadata is kept as given. */
export const registration = z
  .object({
    redirect_uris: redirectUris,
    client_name: z.string().trim().min(1).max(200).optional(),
    token_endpoint_auth_method: z
      .enum(['none', 'client_secret_post', 'client_secret_basic'])
      .default('client_secret_basic'),
    grant_types: z
      .array(z.enum(['authorization_code', 'refresh_token']))
      .min(1)
      .default(['authorization_code']),
    response_types: z.array(z.literal('code')).min(1).default(['code']),
    scope: z.string().max(200).optional(),
    client_uri: z.string().url().max(2000).optional(),
    logo_uri: z.string().url().max(2000).optional(),
  })
  .passthrough();

/** RFC 7591's error for a refused registration: which field and why. */
export function registrationError(error: z.ZodError): { error: string; error_description: string } {
  const issue = error.issues[0];
  const field = String(issue?.path[0] ?? 'body');
  return {
    error: field === 'redirect_uris' ? 'invalid_redirect_uri' : 'invalid_client_metadata',
    error_description: `${field}: ${issue?.message ?? 'invalid'}`,
  };
}

/** Fetches a metadata document: the body (capped) and its max-age, or throws saying why not. */
export type MetadataFetch = (url: URL) => Promise<{ body: string; maxAge: number | null }>;

export const METADATA_LIMITS = { bytes: 16 * 1024, timeoutMs: 5000 };
const MAX_CLIENT_ID = 128; // the client_id becomes the default agent name

/** Why a client_id URL may not be fetched, or null. */
export function metadataUrlProblem(clientId: string): string | null {
  const u = URL.parse(clientId);
  if (u?.protocol !== 'https:') return 'a client_id URL must be https';
  if (u.pathname === '/' || u.hash || u.username || u.password) {
    return 'a client_id URL has a path and no fragment or credentials';
  }
  if (clientId.length > MAX_CLIENT_ID) return `a client_id URL has at most ${MAX_CLIENT_ID} characters`;
  const host = u.hostname.replace(/^\[|\]$/g, '');
  if (isLocalHostName(host) || (isIpLiteral(host) && !isPublicAddress(host))) {
    return 'a client_id URL must name a public host';
  }
  return null;
}

const metadataDocument = z
  .object({
    client_id: z.string(),
    client_name: z.string().trim().min(1).max(200).optional(),
    redirect_uris: redirectUris,
    token_endpoint_auth_method: z.literal('none', { message: 'only public clients ("none") are supported' }).optional(),
  })
  .passthrough();

/** Reads and checks a client's metadata document into the client it describes. */
export async function fetchMetadataClient(
  clientId: string,
  fetchDocument: MetadataFetch,
  now = Date.now(),
): Promise<OAuthClient> {
  const problem = metadataUrlProblem(clientId);
  if (problem) throw new Error(problem);
  const { body, maxAge } = await fetchDocument(new URL(clientId));
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new Error('the client metadata document is not JSON');
  }
  const doc = metadataDocument.safeParse(json);
  if (!doc.success) {
    const issue = doc.error.issues[0];
    throw new Error(`the client metadata document: ${issue?.path.join('.') || 'document'}: ${issue?.message}`);
  }
  if (doc.data.client_id !== clientId) throw new Error('the client metadata document names another client_id');
  const seconds = Math.min(Math.max(maxAge ?? 3600, 60), 86_400);
  return {
    id: clientId,
    kind: 'metadata_document',
    name: doc.data.client_name ?? new URL(clientId).hostname,
    redirect_uris: doc.data.redirect_uris,
    auth_method: 'none',
    secret_hash: null,
    metadata: doc.data,
    expires_at: new Date(now + seconds * 1000).toISOString(),
  };
}

/** max-age of a Cache-Control header, if any. */
export function maxAgeOf(cacheControl: string | null): number | null {
  const m = /(?:^|,)\s*max-age=(\d+)/i.exec(cacheControl ?? '');
  return m ? Number(m[1]) : null;
}

/** A metadata document's body, at most METADATA_LIMITS.bytes. */
export async function readDocument(body: ReadableStream<Uint8Array> | null): Promise<string> {
  const bytes = await readCapped(body, METADATA_LIMITS.bytes, () => {
    return new Error(`the client metadata document is larger than ${METADATA_LIMITS.bytes} bytes`);
  });
  return new TextDecoder().decode(bytes);
}

/**
 * The Workers fetcher: the platform reaches only the public internet, so a name is fetched as it
 * is; IP literals and local names were refused by metadataUrlProblem. No redirects, capped.
 */
export const webMetadataFetch: MetadataFetch = async (url) => {
  const res = await fetch(url, {
    redirect: 'manual',
    headers: { accept: 'application/json' },
    signal: AbortSignal.timeout(METADATA_LIMITS.timeoutMs),
  });
  if (res.status !== 200) {
    await res.body?.cancel().catch(() => {});
    throw new Error(`the client metadata document answered HTTP ${res.status} (redirects are not followed)`);
  }
  return { body: await readDocument(res.body), maxAge: maxAgeOf(res.headers.get('cache-control')) };
};

/**
 * The client a client_id names: a registered one, or the one its metadata document describes
 * (fetched when not cached or stale). Null when there is none; throws saying why a document
 * could not be used.
 */
export async function resolveClient(
  store: Store,
  fetchMetadata: MetadataFetch,
  clientId: string,
): Promise<OAuthClient | null> {
  if (!clientId || clientId.length > 2000) return null;
  const known = await store.oauth.client(clientId);
  if (known && (known.kind === 'registered' || Date.parse(known.expires_at ?? '') > Date.now())) return known;
  if (!clientId.startsWith('https:')) return null;
  return store.oauth.putClient(await fetchMetadataClient(clientId, fetchMetadata));
}
