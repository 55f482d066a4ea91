/**
 * Malformed protocol messages get JSON-RPC -32602 with a sentence naming the field, never an
 * internal error or the schema library's dump, on every revision's way in (the 2025 handshake,
 * the plain short way, 2026-07-28 through the SDK), on Node (PGlite, Postgres) and the Worker.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const V2025 = { 'mcp-protocol-version': '2025-06-18' };
/** 2026-07-28 asks the method (and a tool call's tool) in headers too. */
const v2026 = (method: string, name?: string) => ({
  'mcp-protocol-version': '2026-07-28',
  'mcp-method': method,
  ...(name && { 'mcp-name': name }),
});
/** The per-request envelope 2026-07-28 asks every request to carry. */
const envelope = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
  'io.modelcontextprotocol/clientCapabilities': {},
};
const rpc = (method: string, params?: unknown) => ({
  jsonrpc: '2.0',
  id: 7,
  method,
  ...(params !== undefined && { params }),
});
const init = (params: Record<string, unknown>) =>
  rpc('initialize', {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'raw', version: '1' },
    ...params,
  });

describe.each(TARGETS)('malformed protocol messages on %s', (db) => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  const send = async (body: unknown, headers: Record<string, string> = {}) => {
    const res = await rawPost(t.mcpUrl, body, { 'X-Svc-Key': key, ...headers });
    return {
      status: res.status,
      body: (await res.json()) as {
        id?: unknown;
        error?: { code: number; message: string };
        result?: Record<string, unknown> & { protocolVersion?: string; isError?: boolean };
      },
    };
  };

  it.each([
    [
      'initialize with capabilities null and clientInfo 5',
      init({ capabilities: null, clientInfo: 5 }),
      {},
      'initialize: params.capabilities must be an object, not null; params.clientInfo must be an object, not number',
    ],
    ['initialize without params', rpc('initialize'), {}, 'initialize: params is required (an object)'],
    ['initialize with params null', rpc('initialize', null), {}, 'initialize: params must be an object, not null'],
    [
      'initialize without a client name',
      init({ clientInfo: { version: '1' } }),
      {},
      'initialize: params.clientInfo.name is required (a string)',
    ],
    ['tools/call with params null', rpc('tools/call', null), V2025, 'tools/call: params must be an object, not null'],
    [
      'tools/call with a numeric name',
      rpc('tools/call', { name: 5 }),
      V2025,
      'tools/call: params.name must be a string, not number',
    ],
    [
      'tools/call with arguments as a string',
      rpc('tools/call', { name: 'recall', arguments: 'x' }),
      V2025,
      'tools/call: params.arguments must be an object, not string',
    ],
    [
      'tools/list with a numeric cursor',
      rpc('tools/list', { cursor: 5 }),
      V2025,
      'tools/list: params.cursor must be a string, not number',
    ],
    [
      'tools/list with params as an array',
      rpc('tools/list', [1]),
      V2025,
      'tools/list: params must be an object, not an array',
    ],
    ['ping with params 5', rpc('ping', 5), V2025, 'ping: params must be an object, not number'],
    ['ping with _meta 5', rpc('ping', { _meta: 5 }), V2025, 'ping: params._meta must be an object, not number'],
    [
      'prompts/get with a budget_chars that is a number, not a string',
      rpc('prompts/get', { name: 'brief', arguments: { budget_chars: 4000 } }),
      V2025,
      'prompts/get: params.arguments.budget_chars must be a string, not number',
    ],
    [
      'resources/read without a uri',
      rpc('resources/read', {}),
      V2025,
      'resources/read: params.uri is required (a string)',
    ],
    [
      'tools/list on 2026-07-28 with a numeric cursor',
      rpc('tools/list', { _meta: envelope, cursor: 5 }),
      v2026('tools/list'),
      'tools/list: params.cursor must be a string, not number',
    ],
    [
      'tools/call on 2026-07-28 without a name',
      rpc('tools/call', { _meta: envelope, arguments: {} }),
      v2026('tools/call'),
      'tools/call: params.name is required (a string)',
    ],
  ] as const)('answers %s with -32602 naming the field', async (_, message, headers, expected) => {
    const { body } = await send(message, headers);
    expect(body.error, JSON.stringify(body).slice(0, 300)).toEqual({ code: -32602, message: expected });
    expect(body.id).toBe(7);
    expect(body.result).toBeUndefined();
  });

  it('accepts fields it does not know, as MCP lets a newer client send them', async () => {
    expect((await send(rpc('ping', { bogus: 1 }), V2025)).body.result).toEqual({});
    const init2025 = await send(init({ capabilities: { somethingNew: {} }, extra: true }));
    expect(init2025.body.result).toMatchObject({ protocolVersion: '2025-06-18', serverInfo: { name: 'cairn' } });
    const call = await send(rpc('tools/call', { name: 'recall', arguments: { query: 'x' }, bogus: 1 }), V2025);
    expect(call.body.result?.isError).toBeFalsy();
  });

  it('answers a good initialize, an unknown tool and an unknown method as before', async () => {
    const ok = await send(init({}));
    expect(ok.status).toBe(200);
    expect(ok.body.result?.protocolVersion).toBe('2025-06-18');
    const unknown = await send(rpc('tools/call', { name: 'nope', arguments: {} }), V2025);
    expect(unknown.body.error).toMatchObject({ code: -32602, message: expect.stringMatching(/^Unknown tool "nope"/) });
    expect((await send(rpc('no/such/method', {}), V2025)).body.error).toMatchObject({ code: -32601 });
  });
});
