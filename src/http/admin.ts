/**
 * /admin: the operator API, enabled by CAIRN_ADMIN_TOKEN (`Authorization: Bearer <token>`), and on
 * the embedded database by the local admin token the server wrote to its data directory, for
 * requests from this machine only (src/node/local-admin.ts: how the CLI reaches a running server). Create orgs and keys, list and revoke keys, verify an org's ledger, make an account
 * owning an org; plans, an org's plan and usage; the sweep.
 */
import { type Context, Hono } from 'hono';
import { z } from 'zod';
import { sameSecret } from '../domain/crypto';
import { Invalid, NotFound, Unauthorized } from '../domain/errors';
import { UUID_RE } from '../domain/ids';
import { planInput } from '../domain/limits';
import type { BlobStore, Store } from '../domain/ports';
import { adminActions } from '../operator/admin';
import { expectedHead, exportLines, importExport, linesOf, ndjson } from '../operator/portable';
import type { FailureLimiter } from './failures';

const nameBody = z.object({
  name: z.string().trim().min(1, 'must not be empty').max(128, 'must be at most 128 characters'),
});

const keyBody = nameBody.extend({
  agent: z.string().optional().describe('bind the key to this agent: it acts as that agent only'),
});

const userBody = z.object({
  email: z.string().max(320, 'must be at most 320 characters'),
  password: z.string().optional().describe('absent: one is generated and returned once'),
});

const orgPlanBody = z.object({
  plan: planInput.shape.id.nullable().describe('null: the default plan'),
});

/** Who may use /admin: the operator's token, and the local channel's (with whether a request may use it). */
export interface AdminTokens {
  token: string | undefined;
  local: { token: string; allows: (c: Context) => boolean } | undefined;
}

type AdminEnv = { Variables: { ops: ReturnType<typeof adminActions> } };

export function adminRoutes(
  store: Store,
  blobs: BlobStore,
  tokens: AdminTokens,
  guard: { failures: FailureLimiter; addressOf: (c: Context) => string },
) {
  const app = new Hono<AdminEnv>();
  // the ledger names who acted: the operator API, or the CLI through the local channel
  const api = adminActions(store, 'admin-api');
  const cli = adminActions(store, 'cli');

  // a wrong token counts against its address, as a wrong key or password does (http/failures.ts)
  app.use('*', async (c, next) => {
    const { token, local } = tokens;
    // without CAIRN_ADMIN_TOKEN it is off (contract §6) for everyone but this machine's CLI
    if (!token && !local?.allows(c)) throw new NotFound('the admin API is off; set CAIRN_ADMIN_TOKEN to enable it');
    const bucket = `admin:${guard.addressOf(c)}`;
    guard.failures.check(bucket);
    const given = /^Bearer\s+(.+)$/i.exec(c.req.header('authorization') ?? '')?.[1] ?? '';
    if (token && (await sameSecret(given, token))) c.set('ops', api);
    else if (local?.allows(c) && (await sameSecret(given, local.token))) c.set('ops', cli);
    else {
      await guard.failures.failed(bucket);
      throw new Unauthorized('missing or wrong admin token (Authorization: Bearer …)');
    }
    await next();
  });

  app.post('/orgs', async (c) => {
    const { name } = await parseBody(c.req.raw, nameBody);
    return c.json(await c.var.ops.createOrg(name), 201);
  });
  app.get('/orgs', async (c) => c.json({ orgs: await store.admin.listOrgs() }));
  app.post('/orgs/:id/keys', async (c) => {
    const { name, agent } = await parseBody(c.req.raw, keyBody);
    return c.json(await c.var.ops.createKey(uuidParam(c.req.param('id')), name, agent ?? null), 201);
  });
  app.get('/orgs/:id/keys', async (c) => c.json({ keys: await store.admin.listKeys(uuidParam(c.req.param('id'))) }));
  app.delete('/keys/:id', async (c) =>
    c.json({ key: await store.admin.revokeKey(uuidParam(c.req.param('id')), c.var.ops.actor) }),
  );
  app.post('/orgs/:id/users', async (c) => {
    const { email, password } = await parseBody(c.req.raw, userBody);
    return c.json(await c.var.ops.addUser(uuidParam(c.req.param('id')), email, password), 201);
  });
  app.get('/orgs/:id/ledger/verify', async (c) => c.json(await c.var.ops.verifyLedger(uuidParam(c.req.param('id')))));

  // an export streams as it is read: a failure part way cuts it off before its end line, which
  // `cairn ledger verify --file` and an import then report as a file that is not whole
  app.get('/orgs/:id/export', (c) => {
    const orgId = uuidParam(c.req.param('id'));
    const lines = exportLines(store, blobs, orgId, {
      withPrivate: flag(c.req.query('private')),
      begin: (withPrivate) => store.admin.exportOrg(orgId, withPrivate, c.var.ops.actor),
    });
    return ndjson(lines, `cairn-${orgId}.ndjson`);
  });
  app.post('/orgs/:id/import', async (c) => {
    const orgId = uuidParam(c.req.param('id'));
    if (flag(c.req.query('abort'))) return c.json(await c.var.ops.abortImport(orgId));
    if (!c.req.raw.body) throw new Invalid('body', 'send the export file (NDJSON) as the body');
    const expectHead = expectedHead(c.req.query('expect_head'), 'expect_head');
    return c.json(await importExport(store, blobs, orgId, linesOf(c.req.raw.body), { expectHead }), 201);
  });
  app.post('/orgs/:id/sweep', async (c) => {
    const minutes = z.coerce
      .number()
      .int()
      .min(0)
      .max(100_000)
      .default(60)
      .safeParse(c.req.query('older_than_minutes'));
    if (!minutes.success) throw new Invalid('older_than_minutes', 'must be a whole number of minutes');
    return c.json(await c.var.ops.sweep(uuidParam(c.req.param('id')), blobs, minutes.data));
  });
  app.get('/plans', async (c) => c.json({ plans: await store.admin.plans() }));
  app.put('/plans/:id', async (c) => {
    const plan = await parseBody(c.req.raw, planInput.omit({ id: true }).strict());
    const id = planInput.shape.id.safeParse(c.req.param('id'));
    if (!id.success) throw new Invalid('id', id.error.issues[0]?.message ?? 'invalid');
    return c.json({ plan: await store.admin.putPlan({ ...plan, id: id.data }) });
  });
  app.put('/orgs/:id/plan', async (c) => {
    const { plan } = await parseBody(c.req.raw, orgPlanBody);
    return c.json({ usage: await store.admin.setOrgPlan(uuidParam(c.req.param('id')), plan) });
  });
  app.get('/orgs/:id/usage', async (c) => {
    const days = z.coerce.number().int().min(0).max(366).default(30).safeParse(c.req.query('days'));
    if (!days.success) throw new Invalid('days', 'must be a whole number of days from 0 to 366');
    return c.json({ usage: await store.admin.usage(uuidParam(c.req.param('id')), days.data) });
  });
  return app;
}

const flag = (v: string | undefined) => v === 'true' || v === '1';

function uuidParam(id: string): string {
  if (!UUID_RE.test(id)) throw new Invalid('id', 'must be a UUID');
  return id;
}

async function parseBody<T>(request: Request, schema: z.ZodType<T>): Promise<T> {
  let json: unknown;
  try {
    json = await request.json();
  } catch {
    throw new Invalid('body', 'must be a JSON object');
  }
  const r = schema.safeParse(json);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new Invalid(issue?.path.join('.') || 'body', issue?.message ?? 'invalid');
  }
  return r.data;
}
