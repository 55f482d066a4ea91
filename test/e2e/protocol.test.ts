/** Every protocol revision from 2025-03-26 to 2026-07-28, stateless, answered in JSON. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

describe('protocol revisions', () => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer('pglite');
    ({ key } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  it.each(['2025-03-26', '2025-06-18', '2025-11-25'])(
    'initializes a %s client without a session, in JSON',
    async (version) => {
      const res = await rawPost(
        t.mcpUrl,
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
        { 'X-Svc-Key': key, 'mcp-protocol-version': version },
      );
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/application\/json/);
      expect(res.headers.get('mcp-session-id')).toBeNull();
      const body = await res.json();
      expect(body.result).toMatchObject({
        protocolVersion: version,
        serverInfo: { name: 'cairn' },
        capabilities: { tools: {}, prompts: {}, resources: {} },
      });
      expect(body.result.instructions).toMatch(/recall/);

      const call = await rawPost(t.mcpUrl, toolCall('remember', { content: `from a ${version} client` }), {
        'X-Svc-Key': key,
        'X-Svc-Agent': `raw-${version}`,
        'mcp-protocol-version': version,
      });
      expect(call.headers.get('content-type')).toMatch(/application\/json/);
      const result = (await call.json()).result;
      expect(result.structuredContent.entry).toMatchObject({
        agent: `raw-${version}`,
        content: `from a ${version} client`,
      });
      expect(result.content[0].text).toMatch(/Remembered/);
    },
  );

  it('serves 2026-07-28 natively to a client pinned to it', async () => {
    const s = await connect('v2-modern', t.mcpUrl, { key, agent: 'modern' });
    expect(s.protocolVersion()).toBe('2026-07-28');
    const r = await s.call('recall', { query: 'client' });
    expect((r.structured.hits as unknown[]).length).toBe(3);
    await s.close();
  });

  it('refuses a tools/call of an unknown tool with -32602', async () => {
    const res = await rawPost(t.mcpUrl, toolCall('delete_everything', {}), { 'X-Svc-Key': key });
    expect((await res.json()).error).toMatchObject({ code: -32602, message: expect.stringMatching(/Unknown tool/) });
  });
});
