/** The Worker inside workerd: Neon's HTTP driver to Postgres, R2 for artifacts, a real MCP client. */
import { env } from 'cloudflare:test';
import { exports } from 'cloudflare:workers';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { describe, expect, it } from 'vitest';
import { SECRETS } from '../helpers/secret-samples';

const BASE = 'https://cairn.example';
const ADMIN = 'workers-admin-token-0123456789';
const worker = () => (exports as unknown as { default: { fetch: typeof fetch } }).default;
const call = (path: string, init?: RequestInit) => worker().fetch(`${BASE}${path}`, init);

async function createOrg(name: string): Promise<{ id: string; key: string }> {
  const res = await call('/admin/orgs', {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name }),
  });
  expect(res.status).toBe(201);
  const body = (await res.json()) as { org: { id: string }; key: { secret: string } };
  return { id: body.org.id, key: body.key.secret };
}

async function client(key: string, agent: string) {
  const c = new Client({ name: 'workerd-test', version: '1' });
  const transport = new StreamableHTTPClientTransport(new URL(`${BASE}/mcp`), {
    requestInit: { headers: { 'X-Svc-Key': key, 'X-Svc-Agent': agent, 'X-Svc-Project': 'github.com/acme/edge' } },
    fetch: (url, init) => worker().fetch(String(url), init),
  });
  await c.connect(transport);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = await c.callTool({ name, arguments: args });
    return { ...r, structured: r.structuredContent as Record<string, never> };
  };
  return { c, tool };
}

describe('Cairn on Workers', () => {
  it('reports health from the database', async () => {
    const res = await call('/healthz');
    expect(await res.json()).toEqual({ ok: true, version: expect.any(String) });
  });

  it('answers GET /mcp with 401 without a key', async () => {
    const res = await call('/mcp');
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/X-Svc-Key/);
  });

  it('serves the tools end to end, artifacts in R2, forget removing the bytes', async () => {
    const org = await createOrg('edge org');
    const { c, tool } = await client(org.key, 'edge-agent');
    const r = await tool('remember', { content: 'workers remember through Neon over HTTP' });
    expect(r.structured.entry).toMatchObject({
      agent: 'edge-agent',
      project: 'github.com/acme/edge',
      scope: 'project',
    });
    const found = await tool('recall', { query: 'what do workers remember?' });
    expect((found.structured.hits as unknown as { content: string }[])[0]?.content).toBe(
      'workers remember through Neon over HTTP',
    );

    const put = await tool('artifact_put', { name: 'edge.txt', content: 'bytes in R2' });
    const artifact = put.structured.artifact as unknown as { id: string };
    expect(await env.ARTIFACTS.get(`${org.id}/${artifact.id}`).then((o) => o?.text())).toBe('bytes in R2');
    const got = await tool('artifact_get', { id: artifact.id });
    expect(JSON.stringify(got.content)).toContain('bytes in R2');

    const f = await tool('forget', { ids: [artifact.id] });
    expect(f.structured).toEqual({ forgotten: [artifact.id], not_found: [], forgotten_before: [] });
    expect(await env.ARTIFACTS.get(`${org.id}/${artifact.id}`)).toBeNull();
    await c.close();
  });

  it("serves the prompts and the resource cairn://brief: the caller's space brief", async () => {
    const org = await createOrg('brief org');
    const { c, tool } = await client(org.key, 'edge-agent');
    await tool('decide', { content: 'Deploy the edge with wrangler', rationale: 'one command' });
    const brief = await tool('space', { view: 'brief' });
    const text = (brief.content as { text: string }[]).at(-1)?.text;
    expect(text).toMatch(/Deploy the edge with wrangler Why: one command \(edge-agent, id [0-9a-f]{8}\)/);
    expect((await c.listPrompts()).prompts.map((p) => p.name)).toEqual(['brief', 'record']);
    const prompt = await c.getPrompt({ name: 'brief' });
    expect(prompt.messages).toEqual([{ role: 'user', content: { type: 'text', text } }]);
    const read = await c.readResource({ uri: 'cairn://brief' });
    expect(read.contents).toEqual([{ uri: 'cairn://brief', mimeType: 'text/markdown', text }]);
    await c.close();
  });

  it('keeps orgs apart and refuses a revoked key at once', async () => {
    const a = await createOrg('a');
    const b = await createOrg('b');
    const ca = await client(a.key, 'x');
    const id = (
      (await ca.tool('remember', { content: 'private to org a' })).structured.entry as unknown as { id: string }
    ).id;
    const cb = await client(b.key, 'x');
    expect((await cb.tool('recall', { query: 'private', scope: 'org' })).structured.hits).toEqual([]);
    const res = await call('/mcp', {
      method: 'POST',
      headers: {
        'X-Svc-Key': b.key,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'forget', arguments: { id } },
      }),
    });
    expect(res.status).toBe(403);
    await ca.c.close();
    await cb.c.close();
  });

  it('refuses a write holding a secret, naming the field and the kind, and stores nothing', async () => {
    const org = await createOrg('secrets');
    const { c, tool } = await client(org.key, 'edge-agent');
    const key = SECRETS.find((x) => x.kind === 'an AWS access key')?.secret as string;
    const r = await tool('remember', { content: `wombatdeploy uses ${key}` });
    expect(r.isError).toBe(true);
    const text = JSON.stringify(r.content);
    expect(text).toContain('content: holds what looks like an AWS access key; secrets are never stored');
    expect(text).not.toContain(key);
    const put = await tool('artifact_put', { name: 'wombat.env', content_base64: btoa(`KEY=${key}`) });
    expect(JSON.stringify(put.content)).toContain('content_base64: holds what looks like an AWS access key');
    expect((await tool('recall', { query: 'wombatdeploy', scope: 'org' })).structured.hits).toEqual([]);
    const ledger = await tool('space', { view: 'ledger' });
    expect((ledger.structured.events as unknown as { op: string }[]).map((e) => e.op)).toEqual(['key.create']);
    await c.close();
  });

  it('stores a base64 artifact of exactly the 5 MiB limit in R2, and refuses one byte more', async () => {
    const org = await createOrg('big files');
    const { c, tool } = await client(org.key, 'uploader');
    const bytes = Uint8Array.from({ length: 5 * 1024 * 1024 }, (_, i) => (i * 7919) & 0xff);
    let binary = '';
    for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
    const b64 = btoa(binary);
    const put = await tool('artifact_put', { name: 'at-limit.bin', content_base64: b64 });
    expect(put.isError, JSON.stringify(put.content).slice(0, 200)).toBeFalsy();
    const artifact = put.structured.artifact as unknown as { id: string; size: number };
    expect(artifact.size).toBe(bytes.length);
    const stored = await env.ARTIFACTS.get(`${org.id}/${artifact.id}`);
    const got = new Uint8Array((await stored?.arrayBuffer()) ?? new ArrayBuffer(0));
    expect(got.length).toBe(bytes.length);
    expect(got.findIndex((b, i) => b !== bytes[i])).toBe(-1);
    const over = await tool('artifact_put', { name: 'over.bin', content_base64: btoa(`${binary}x`) });
    expect(over.isError).toBe(true);
    expect(JSON.stringify(over.content)).toMatch(/content_base64: the artifact is 5242881 bytes; the limit is 5242880/);
    await c.close();
  });
});
