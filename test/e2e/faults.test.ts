/**
 * Faults: the database unreachable or failing in the middle of a call, the blob store failing
 * before or after a write, a client going away mid-request. Each call fails cleanly (503 or a tool
 * error), nothing is half-written, and what is left over (bytes no artifact names) the sweep finds.
 */
import { readdir } from 'node:fs/promises';
import { connect as tcp } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BlobStore } from '../../src/domain/ports';
import { adminActions } from '../../src/operator/admin';
import { startTcpFault, type TcpFault } from '../fixtures/tcp-fault';
import { connect, headersFor, rawPost, toolCall } from '../helpers/clients';
import { type InProcess, startInProcess } from '../helpers/in-process';
import { ADMIN_TOKEN, startTestServer, type TestServer } from '../helpers/server';

const sweep = async (url: string, orgId: string) => {
  const res = await fetch(`${url}/admin/orgs/${orgId}/sweep?older_than_minutes=0`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
  });
  return (await res.json()) as { deleted: string[]; missing_bytes: string[]; blobs: number };
};

describe('the database failing, on Postgres', () => {
  let t: TestServer;
  let fault: TcpFault;
  let key: string;
  let orgId: string;

  beforeAll(async () => {
    fault = await startTcpFault({ host: '127.0.0.1', port: 5432 });
    t = await startTestServer('postgres', (pg) => {
      const u = new URL(pg?.url as string);
      u.port = String(fault.port);
      return { DATABASE_URL: u.toString() };
    });
    ({ key, orgId } = await t.createOrg('faulty'));
  });
  afterAll(async () => {
    fault.mode = 'pass';
    await t?.close();
    await fault?.close();
  });

  /** Entries and their ledger events agree: every write is whole or absent. */
  async function whole() {
    const pg = t.pg as NonNullable<TestServer['pg']>;
    const [e] = await pg.query<{ n: string }>('SELECT count(*) AS n FROM entries WHERE org_id = $1', [orgId]);
    const [l] = await pg.query<{ n: string }>(
      "SELECT count(*) AS n FROM ledger WHERE org_id = $1 AND op IN ('remember', 'plan.create')",
      [orgId],
    );
    expect(Number(e?.n)).toBe(Number(l?.n));
    const [a] = await pg.query<{ n: string }>('SELECT count(*) AS n FROM artifacts WHERE org_id = $1', [orgId]);
    const [la] = await pg.query<{ n: string }>(
      "SELECT count(*) AS n FROM ledger WHERE org_id = $1 AND op = 'artifact_put'",
      [orgId],
    );
    expect(Number(a?.n)).toBe(Number(la?.n));
    const verify = await fetch(`${t.url}/admin/orgs/${orgId}/ledger/verify`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(await verify.json()).toMatchObject({ ok: true, broken_at: null });
  }

  it('answers 503 while the database is unreachable, and serves again when it is back', async () => {
    expect((await rawPost(t.mcpUrl, toolCall('remember', { content: 'before' }), { 'X-Svc-Key': key })).status).toBe(
      200,
    );
    fault.mode = 'refuse';
    fault.cutAll();
    const down = await rawPost(t.mcpUrl, toolCall('remember', { content: 'during' }), { 'X-Svc-Key': key });
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({
      jsonrpc: '2.0',
      error: { code: -32050, message: expect.stringMatching(/temporarily unavailable; retry shortly/) },
    });
    const list = await rawPost(t.mcpUrl, { jsonrpc: '2.0', id: 1, method: 'tools/list' }, { 'X-Svc-Key': key });
    expect(list.status).toBe(503);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(503);
    fault.mode = 'pass';
    const back = await rawPost(t.mcpUrl, toolCall('remember', { content: 'after' }), { 'X-Svc-Key': key });
    expect(back.status).toBe(200);
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
    await whole();
  });

  it('fails a call whose answer is lost mid-way cleanly: the write is whole or absent, bytes the sweep can find', async () => {
    fault.mode = 'cut-before-answer';
    fault.cutAll();
    const lost = [
      await rawPost(t.mcpUrl, toolCall('remember', { content: 'answer lost' }), { 'X-Svc-Key': key }),
      await rawPost(t.mcpUrl, toolCall('plan', { title: 'plan with a lost answer' }), { 'X-Svc-Key': key }),
      await rawPost(t.mcpUrl, toolCall('artifact_put', { name: 'lost.txt', content: 'bytes' }), { 'X-Svc-Key': key }),
    ];
    for (const res of lost) expect(res.status).toBe(503);
    fault.mode = 'pass';
    await whole();
    // bytes written for a row that may exist are kept; the sweep keeps them if it does and
    // deletes them if not: afterwards every artifact has its bytes, and no bytes lack an artifact
    const swept = await sweep(t.url, orgId);
    expect(swept.missing_bytes).toEqual([]);
    const s = await connect('v2', t.mcpUrl, { key, agent: 'checker' });
    const got = await s.call('artifact_get', { name: 'lost.txt' });
    await s.close();
    const left = await readdir(join(t.blobsDir, orgId)).catch(() => []);
    if (got.isError) expect(left).toEqual([]);
    else {
      expect(got.content.some((c) => c.resource?.text === 'bytes')).toBe(true);
      expect(left).toHaveLength(1);
    }
  });
});

describe('the blob store failing, and a client going away', () => {
  let app: InProcess;
  let key: string;
  let orgId: string;
  const failing = { put: false, delete: false };

  beforeAll(async () => {
    app = await startInProcess((real) => {
      const blobs: BlobStore = {
        put: (k, b, t) => (failing.put ? Promise.reject(new Error('disk full')) : real.put(k, b, t)),
        get: (k) => real.get(k),
        delete: (ks) => (failing.delete ? Promise.reject(new Error('bucket unreachable')) : real.delete(ks)),
        list: (p) => real.list(p),
      };
      return { blobs };
    });
    const created = await adminActions(app.store, 'test').createOrg('blobs');
    key = created.key.secret;
    orgId = created.org.id;
  });
  afterAll(() => app?.close());

  const call = async (name: string, args: Record<string, unknown>) => {
    const res = await rawPost(`${app.url}/mcp`, toolCall(name, args), headersFor({ key, agent: 'writer' }));
    expect(res.status).toBe(200);
    return (
      (await res.json()) as {
        result: { isError?: boolean; content: { text: string }[]; structuredContent: Record<string, unknown> };
      }
    ).result;
  };

  it('answers 503 for an artifact whose bytes cannot be stored: no row, no ledger event', async () => {
    failing.put = true;
    const res = await rawPost(
      `${app.url}/mcp`,
      toolCall('artifact_put', { name: 'nowhere.txt', content: 'x' }),
      headersFor({ key, agent: 'writer' }),
    );
    failing.put = false;
    expect(res.status).toBe(503);
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(
      'the artifact store could not take the bytes; nothing was stored; retry shortly',
    );
    const space = await call('space', { view: 'ledger' });
    expect((space.structuredContent.events as { op: string }[]).map((e) => e.op)).toEqual(['key.create']);
    expect(await app.blobs.list(`${orgId}/`)).toEqual([]);
  });

  it('forgets an artifact even when its bytes cannot be deleted yet; the sweep deletes them', async () => {
    const put = await call('artifact_put', { name: 'stays.txt', content: 'secret bytes' });
    const id = (put.structuredContent.artifact as { id: string }).id;
    failing.delete = true;
    const forgot = await call('forget', { id, reason: 'no longer needed' });
    failing.delete = false;
    expect(forgot.structuredContent).toMatchObject({ forgotten: [id] });
    expect(await app.blobs.list(`${orgId}/`)).toEqual([`${orgId}/${id}`]); // left over
    const swept = await sweep(app.url, orgId);
    expect(swept).toMatchObject({ deleted: [`${orgId}/${id}`], missing_bytes: [] });
    expect(await app.blobs.list(`${orgId}/`)).toEqual([]);
  });

  it('keeps recent leftovers: an upload in flight writes its bytes before its row', async () => {
    const res = await fetch(`${app.url}/admin/orgs/${orgId}/sweep`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(await res.json()).toMatchObject({ deleted: [], kept_recent: 0 });
  });

  it('writes nothing for a client that goes away in the middle of its request', async () => {
    const { port } = new URL(app.url);
    const body = JSON.stringify(toolCall('artifact_put', { name: 'half.txt', content: 'y'.repeat(200_000) }));
    await new Promise<void>((resolve) => {
      const socket = tcp(Number(port), '127.0.0.1', () => {
        socket.write(
          `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nContent-Type: application/json\r\n` +
            `Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n` +
            `X-Svc-Key: ${key}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 50_000)}`,
        );
        setTimeout(() => {
          socket.destroy();
          resolve();
        }, 200);
      });
    });
    await new Promise((r) => setTimeout(r, 300));
    const space = await call('space', {});
    expect(space.structuredContent.artifacts).toEqual({ count: 0, bytes: 0 });
    expect(await app.blobs.list(`${orgId}/`)).toEqual([]);
    expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
  });
});
