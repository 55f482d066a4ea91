/**
 * The authorization request (RFC 6749 §4.1.1 with PKCE, RFC 8707 and RFC 9207): checked in the
 * order that decides where an error may go. Until the client and its redirect URI are known good,
 * errors are shown on the page (never sent to an unchecked URI). After, an error is `refused`: the
 * caller sends it back to the client only when the signed-in user already trusts the client
 * (RFC 9700 §4.11.2: registration is open, so a registered URI alone is no reason to redirect).
 */

import { SCOPE } from '../auth/oauth-tokens';
import type { OAuthClient, Store } from '../domain/ports';
import { type MetadataFetch, resolveClient } from './clients';

export interface AuthorizeRequest {
  client: OAuthClient;
  redirectUri: string;
  challenge: string;
  state: string | undefined;
  scope: string;
  resource: string;
}

/** A request refused for a known client and redirect URI: the error, and the redirect that would carry it. */
export interface Refused {
  client: OAuthClient;
  error: string;
  description: string;
  redirect: string;
}

export type Checked = { ok: AuthorizeRequest } | { page: string } | { refused: Refused };

/** The fields of an authorization request, as the consent form carries them back. */
export const AUTHORIZE_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
] as const;

/** The request's fields that were sent, to carry through sign-in and the consent form. */
export function authorizeFields(q: Record<string, string | undefined>): Record<string, string> {
  return Object.fromEntries(AUTHORIZE_FIELDS.flatMap((k) => (q[k] === undefined ? [] : [[k, q[k] as string]])));
}

/** `uri` with these parameters added to its query, and the issuer (RFC 9207). */
export function redirectTo(uri: string, params: Record<string, string | undefined>, issuer: string): string {
  const u = new URL(uri);
  for (const [k, v] of Object.entries({ ...params, iss: issuer })) if (v !== undefined) u.searchParams.set(k, v);
  return u.toString();
}

export async function checkAuthorize(
  q: Record<string, string | undefined>,
  deps: { store: Store; fetchMetadata: MetadataFetch; resource: string; issuer: string },
): Promise<Checked> {
  let client: OAuthClient | null;
  try {
    client = await resolveClient(deps.store, deps.fetchMetadata, q.client_id ?? '');
  } catch (err) {
    return { page: `The application's client_id could not be used: ${(err as Error).message}.` };
  }
  if (!client) return { page: 'The application is not registered here (unknown client_id).' };
  const known = client;
  const redirectUri = q.redirect_uri ?? '';
  if (!client.redirect_uris.includes(redirectUri)) {
    return {
      page: 'The redirect_uri is not one the application registered, so you are not sent there.',
    };
  }
  const back = (error: string, description: string) => ({
    refused: {
      client: known,
      error,
      description,
      redirect: redirectTo(redirectUri, { error, error_description: description, state: q.state }, deps.issuer),
    },
  });
  if (q.response_type !== 'code') return back('unsupported_response_type', 'response_type must be code');
  if (!q.code_challenge || !q.code_challenge_method) {
    return back('invalid_request', 'PKCE is required: send code_challenge with code_challenge_method=S256');
  }
  if (q.code_challenge_method !== 'S256') return back('invalid_request', 'code_challenge_method must be S256');
  if (!/^[A-Za-z0-9_-]{43}$/.test(q.code_challenge)) {
    return back('invalid_request', 'code_challenge must be the base64url SHA-256 of the verifier (43 characters)');
  }
  if (q.resource !== undefined && q.resource !== deps.resource) {
    return back('invalid_target', `this server issues tokens for ${deps.resource} only`);
  }
  const scopes = (q.scope ?? '').split(' ').filter(Boolean);
  if (scopes.some((s) => s !== SCOPE)) return back('invalid_scope', `this server has one scope, "${SCOPE}"`);
  return {
    ok: {
      client,
      redirectUri,
      challenge: q.code_challenge,
      state: q.state,
      scope: SCOPE,
      resource: deps.resource,
    },
  };
}
