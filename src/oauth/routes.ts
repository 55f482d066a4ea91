/**
 * The OAuth 2.1 authorization server's HTTP side (docs/design.md, "OAuth"): metadata (RFC 9728 for
 * /mcp, RFC 8414 for the issuer), dynamic registration (RFC 7591), the token endpoint
 * (authorization code with PKCE S256, refresh with rotation) and revocation (RFC 7009). The
 * authorization endpoint, where a signed-in user consents, is the dashboard's (/dashboard/authorize).
 */
import { type Context, Hono } from 'hono';
import { cors } from 'hono/cors';
import { accessTokenHash, newAccessToken, newOpaqueToken, opaqueHash, SCOPE, s256 } from '../auth/oauth-tokens';
import { sameSecret } from '../domain/crypto';
import { TooManyRequests } from '../domain/errors';
import type { OAuthClient, Store, TokenOutcome } from '../domain/ports';
import { readLimited } from '../http/body';
import type { FailureLimiter } from '../http/failures';
import { type MetadataFetch, registration, registrationError, resolveClient } from './clients';

export interface OAuthOptions {
  store: Store;
  /** CAIRN_BASE_URL, if set; else each request's origin. */
  publicUrl: string | undefined;
  fetchMetadata: MetadataFetch;
  accessSeconds: number;
  refreshSeconds: number;
  /** Registrations, each counted per address (http/failures.ts, door `register`). */
  creations: FailureLimiter;
  addressOf: (c: Context) => string;
}

/** The issuer: the service's public URL, or the origin the request reached. */
export const issuerOf = (publicUrl: string | undefined, c: Context) => publicUrl ?? new URL(c.req.url).origin;
/** The protected resource: the MCP endpoint of that issuer. */
export const resourceOf = (publicUrl: string | undefined, c: Context) => `${issuerOf(publicUrl, c)}/mcp`;
export const resourceMetadataUrl = (publicUrl: string | undefined, c: Context) =>
  `${issuerOf(publicUrl, c)}/.well-known/oauth-protected-resource/mcp`;

const VERIFIER_RE = /^[A-Za-z0-9._~-]{43,128}$/;
const AUTH_METHODS = ['none', 'client_secret_post', 'client_secret_basic'];

export function wellKnownRoutes({ publicUrl }: Pick<OAuthOptions, 'publicUrl'>) {
  const app = new Hono();
  app.use('*', cors());
  const resourceMetadata = (c: Context) =>
    c.json({
      resource: resourceOf(publicUrl, c),
      authorization_servers: [issuerOf(publicUrl, c)],
      scopes_supported: [SCOPE],
      bearer_methods_supported: ['header'],
      resource_name: 'Cairn shared memory',
    });
  app.get('/oauth-protected-resource', resourceMetadata);
  app.get('/oauth-protected-resource/mcp', resourceMetadata);
  app.get('/oauth-authorization-server', (c) => {
    const issuer = issuerOf(publicUrl, c);
    return c.json({
      issuer,
      authorization_endpoint: `${issuer}/dashboard/authorize`,
      token_endpoint: `${issuer}/oauth/token`,
      registration_endpoint: `${issuer}/oauth/register`,
      revocation_endpoint: `${issuer}/oauth/revoke`,
      response_types_supported: ['code'],
      response_modes_supported: ['query'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      token_endpoint_auth_methods_supported: AUTH_METHODS,
      revocation_endpoint_auth_methods_supported: AUTH_METHODS,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: [SCOPE],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
    });
  });
  return app;
}

export function oauthRoutes(opts: OAuthOptions) {
  const { store, publicUrl } = opts;
  const app = new Hono();
  app.use('*', cors());
  app.use('*', async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });
  const fail = (c: Context, error: string, description: string, status: 400 | 401 = 400) =>
    c.json({ error, error_description: description }, status);

  app.post('/register', async (c) => {
    // every registration counts against its address: anyone may register, not without end
    const bucket = `register:${opts.addressOf(c)}`;
    try {
      await opts.creations.attempt(bucket);
    } catch (err) {
      if (!(err instanceof TooManyRequests)) throw err;
      c.header('Retry-After', String(err.info.retry_after));
      return c.json({ error: 'invalid_request', error_description: err.message }, 429);
    }
    let body: unknown;
    try {
      body = JSON.parse(new TextDecoder().decode(await readLimited(c.req.raw, 16 * 1024)));
    } catch {
      return fail(c, 'invalid_client_metadata', 'the body must be a JSON object of client metadata, at most 16 KiB');
    }
    const parsed = registration.safeParse(body);
    if (!parsed.success) return c.json(registrationError(parsed.error), 400);
    const meta = parsed.data;
    if (meta.scope && !meta.scope.split(' ').every((s) => s === SCOPE)) {
      return fail(c, 'invalid_client_metadata', `scope: this server has one scope, "${SCOPE}"`);
    }
    const secret = meta.token_endpoint_auth_method === 'none' ? undefined : newOpaqueToken();
    const client = await store.oauth.putClient({
      id: crypto.randomUUID(),
      kind: 'registered',
      name: meta.client_name ?? 'unnamed client',
      redirect_uris: meta.redirect_uris,
      auth_method: meta.token_endpoint_auth_method,
      secret_hash: secret ? await opaqueHash(secret) : null,
      metadata: meta,
      expires_at: null,
    });
    return c.json(
      {
        ...meta,
        client_id: client.id,
        client_id_issued_at: Math.floor(Date.now() / 1000),
        ...(secret ? { client_secret: secret, client_secret_expires_at: 0 } : {}),
      },
      201,
    );
  });

  /** The client of a token or revocation request, authenticated as it registered (RFC 6749 §2.3). */
  async function clientOf(c: Context, form: Record<string, string>): Promise<OAuthClient | Response> {
    let id = form.client_id ?? '';
    let secret = form.client_secret;
    const basic = /^Basic\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (basic) {
      try {
        const decoded = atob(basic);
        const at = decoded.indexOf(':');
        id = decodeURIComponent(decoded.slice(0, at));
        secret = decodeURIComponent(decoded.slice(at + 1));
      } catch {
        return fail(c, 'invalid_client', 'the Basic credentials are not base64 of client_id:client_secret', 401);
      }
    }
    let client: OAuthClient | null;
    try {
      client = await resolveClient(store, opts.fetchMetadata, id);
    } catch (err) {
      return fail(c, 'invalid_client', (err as Error).message, 401);
    }
    if (!client) return fail(c, 'invalid_client', 'unknown client_id; register first', 401);
    if (client.auth_method !== 'none') {
      const ok =
        secret !== undefined &&
        client.secret_hash !== null &&
        (await sameSecret(await opaqueHash(secret), client.secret_hash));
      if (!ok) return fail(c, 'invalid_client', 'client authentication failed', 401);
    }
    return client;
  }

  async function formOf(c: Context): Promise<Record<string, string> | null> {
    if (!/^application\/x-www-form-urlencoded\b/i.test(c.req.header('content-type') ?? '')) return null;
    const text = new TextDecoder().decode(await readLimited(c.req.raw, 16 * 1024));
    return Object.fromEntries(new URLSearchParams(text));
  }

  app.post('/token', async (c) => {
    const form = await formOf(c);
    if (!form) return fail(c, 'invalid_request', 'send the request as application/x-www-form-urlencoded');
    const client = await clientOf(c, form);
    if (client instanceof Response) return client;
    const resource = resourceOf(publicUrl, c);
    if (form.resource !== undefined && form.resource !== resource) {
      return fail(c, 'invalid_target', `this server issues tokens for ${resource} only`);
    }
    const access = newAccessToken(client.id);
    const refresh = newOpaqueToken();
    const hashes = {
      access: await accessTokenHash(resource, access),
      refresh: await opaqueHash(refresh),
      accessSeconds: opts.accessSeconds,
      refreshSeconds: opts.refreshSeconds,
    };
    let outcome: TokenOutcome;
    if (form.grant_type === 'authorization_code') {
      if (!form.code || !form.redirect_uri) return fail(c, 'invalid_request', 'code and redirect_uri are required');
      if (!form.code_verifier || !VERIFIER_RE.test(form.code_verifier)) {
        return fail(c, 'invalid_request', 'code_verifier is required: 43 to 128 characters of A-Z a-z 0-9 - . _ ~');
      }
      const a = {
        codeHash: await opaqueHash(form.code),
        clientId: client.id,
        redirectUri: form.redirect_uri,
        challenge: await s256(form.code_verifier),
        resource,
      };
      outcome = await store.oauth.exchange(a, hashes);
    } else if (form.grant_type === 'refresh_token') {
      if (!form.refresh_token) return fail(c, 'invalid_request', 'refresh_token is required');
      outcome = await store.oauth.refresh(
        { refreshHash: await opaqueHash(form.refresh_token), clientId: client.id, resource },
        hashes,
      );
    } else {
      return fail(c, 'unsupported_grant_type', 'grant_type is authorization_code or refresh_token');
    }
    if ('error' in outcome) return fail(c, outcome.error, outcome.error_description);
    return c.json({
      access_token: access,
      token_type: 'Bearer',
      expires_in: opts.accessSeconds,
      refresh_token: refresh,
      scope: outcome.scope,
    });
  });

  app.post('/revoke', async (c) => {
    const form = await formOf(c);
    if (!form?.token) return fail(c, 'invalid_request', 'token is required, as application/x-www-form-urlencoded');
    const client = await clientOf(c, form);
    if (client instanceof Response) return client;
    const token = form.token;
    await store.oauth.revoke(
      await accessTokenHash(resourceOf(publicUrl, c), token),
      await opaqueHash(token),
      client.id,
    );
    return c.body(null, 200);
  });
  return app;
}
