/**
 * Plain tools/list and tools/call requests of the 2025 revisions are answered by src/mcp/server.ts
 * itself, without a per-request SDK server and transport. Their answers must be exactly the SDK's:
 * each request here goes to an endpoint that takes the short way and to one that answers through
 * the SDK only, and the two responses (status, content type, body) must be equal, byte for byte.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/crypto';
import { createMemoryService } from '../../src/domain/memory';
import type { Store } from '../../src/domain/ports';
import { asResponse } from '../../src/http/mcp';
import { createMcpEndpoint, type Exchange } from '../../src/mcp/server';
import { adminActions } from '../../src/operator/admin';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { openStore } from '../../src/storage/pg/client';

describe('plain requests answered without the SDK', () => {
  let store: Store;
  let keyHash: string;
  let endpoints: { fast: ReturnType<typeof createMcpEndpoint>; sdk: ReturnType<typeof createMcpEndpoint> };

  beforeAll(async () => {
    store = await openStore({ dataDir: 'memory://', maintenanceSeconds: 0 });
    const { key } = await adminActions(store, 'test').createOrg('plain');
    keyHash = await sha256Hex(key.secret);
    const service = createMemoryService({ store, blobs: createFsBlobStore(`/tmp/cairn-plain-${process.pid}`) });
    const opts = { service, version: '9.9.9', maxArtifactBytes: 1 << 20, maxBodyBytes: 1 << 20, log: () => {} };
    endpoints = { fast: createMcpEndpoint(opts), sdk: createMcpEndpoint({ ...opts, sdkOnly: true }) };
  });
  afterAll(() => store?.close());

  /** `body`: a JSON-RPC message, or its text when this process could not stringify it. */
  async function answer(which: 'fast' | 'sdk', message: unknown, headers: Record<string, string>) {
    const text = typeof message === 'string' ? message : JSON.stringify(message);
    const body: unknown = JSON.parse(text);
    const request = new Request('http://127.0.0.1/mcp', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
      body: text,
    });
    const exchange: Exchange = {
      caller: { keyHash, agent: 'tester', agentSource: 'header', projectHeader: '/srv/plain' },
    };
    const http = { header: (name: string) => request.headers.get(name), web: () => request };
    const res = asResponse(await endpoints[which](http, body, exchange));
    // every call counts against the month's quota: the one thing two answers in a row differ in
    const answered = (await res.text())
      .replace(/Tool calls this month: \d+/g, 'Tool calls this month: N')
      .replace(/"tool_calls_this_month":\d+/g, '"tool_calls_this_month":N');
    return { status: res.status, type: res.headers.get('content-type'), body: answered };
  }

  const call = (id: number | string, name: string, args?: unknown) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name, ...(args === undefined ? {} : { arguments: args }) },
  });

  const requests: [string, unknown][] = [
    ['tools/list', { jsonrpc: '2.0', id: 1, method: 'tools/list' }],
    ['tools/list with params', { jsonrpc: '2.0', id: 'l', method: 'tools/list', params: { cursor: 'x' } }],
    ['recall', call(2, 'recall', { query: 'the deploy' })],
    ['recall, bad arguments', call(3, 'recall', { query: 7, limit: 1000 })],
    ['remember, no arguments', call(4, 'remember')],
    ['space overview', call('s', 'space', {})],
    ['space history without entry_id', call(5, 'space', { view: 'history' })],
    ['artifact_get of nothing', call(6, 'artifact_get', { name: 'missing.txt' })],
    ['forget of an unknown id', call(7, 'forget', { id: '01a20000-0000-7000-8000-000000000000' })],
    ['an unknown tool (SDK either way)', call(8, 'nope', {})],
    [
      'metadata nested 50,000 deep',
      `{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"remember","arguments":{"content":"x","metadata":${'{"v":'.repeat(50_000)}1${'}'.repeat(50_000)}}}}`,
    ],
    ['arguments that are not an object (SDK either way)', call(9, 'recall', 'query')],
    ['prompts/list (SDK either way)', { jsonrpc: '2.0', id: 12, method: 'prompts/list' }],
    [
      'resources/read of the brief (SDK either way)',
      { jsonrpc: '2.0', id: 13, method: 'resources/read', params: { uri: 'cairn://brief' } },
    ],
  ];

  for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
    it.each(requests)(`${version}: %s is answered as the SDK answers it`, async (_, body) => {
      const headers = { 'mcp-protocol-version': version };
      const sdk = await answer('sdk', body, headers);
      const fast = await answer('fast', body, headers);
      expect(fast).toEqual(sdk);
      expect(sdk.status).toBe(200);
    });
  }

  it('answers a write the same way too (each endpoint writes its own entry)', async () => {
    const headers = { 'mcp-protocol-version': '2025-11-25' };
    const shape = (r: { body: string }) =>
      JSON.parse(
        r.body
          .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, 'T'),
      );
    const sdk = await answer('sdk', call(10, 'remember', { content: 'sdk wrote this', tags: ['a'] }), headers);
    const fast = await answer('fast', call(10, 'remember', { content: 'fast wrote this', tags: ['a'] }), headers);
    expect(shape(fast)).toEqual(shape({ body: sdk.body.replace('sdk wrote', 'fast wrote') }));
  });
});
