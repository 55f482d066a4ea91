/** The Workers entry: builds Deps from bindings (Neon over HTTP, R2) and hands them to the app. */
import { createApp } from './app';
import { parseConfig } from './config';
import { createR2BlobStore } from './storage/blobs/r2';
import { createNeonStore } from './storage/pg/neon';

export default {
  fetch(request: Request, env: Env, ctx: ExecutionContext): Response | Promise<Response> {
    const vars = env as unknown as Record<string, string | undefined>;
    const config = parseConfig(vars, { bindsHost: false });
    if (!config.databaseUrl) {
      return new Response('DATABASE_URL is not set: wrangler secret put DATABASE_URL', { status: 503 });
    }
    const app = createApp({
      config,
      store: createNeonStore(config.databaseUrl, vars.CAIRN_NEON_HTTP_ENDPOINT),
      blobs: createR2BlobStore(env.ARTIFACTS),
    });
    return app.fetch(request, env, ctx);
  },
} satisfies ExportedHandler<Env>;
