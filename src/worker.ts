/** The Workers entry: builds Deps from bindings (Neon over HTTP, R2, Workers AI) and hands them to the app. */
import { createApp } from './app';
import { parseConfig } from './config';
import { createEmbedder } from './embeddings/index';
import type { AiBinding } from './embeddings/workers-ai';
import { createR2BlobStore } from './storage/blobs/r2';
import { createNeonStore } from './storage/pg/neon';

/**
 * One app per isolate and environment: what it holds (the embeddings provider's breaker, the
 * tool listing) lasts across requests. Vectors are set up by `cairn migrate` with the same
 * CAIRN_EMBEDDINGS_* settings; until then the SQL functions skip them and recall stays lexical.
 */
const apps = new WeakMap<object, ReturnType<typeof createApp> | Response>();

function appFor(env: Env): ReturnType<typeof createApp> | Response {
  const vars = env as unknown as Record<string, unknown>;
  const config = parseConfig(vars, { bindsHost: false });
  if (!config.databaseUrl) {
    return new Response('DATABASE_URL is not set: wrangler secret put DATABASE_URL', { status: 503 });
  }
  return createApp({
    config,
    store: createNeonStore(config.databaseUrl, vars.CAIRN_NEON_HTTP_ENDPOINT as string | undefined, config.dbBounds),
    blobs: createR2BlobStore(env.ARTIFACTS),
    embedder: createEmbedder(config.embeddings, { ai: vars.AI as AiBinding | undefined }),
    // set by Cloudflare's edge, which overwrites any value a client sends
    clientAddress: (c) => c.req.header('cf-connecting-ip'),
  });
}

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    let app = apps.get(env);
    if (!app) {
      app = appFor(env);
      apps.set(env, app);
    }
    return app instanceof Response ? app.clone() : app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
