/**
 * MCP prompts (`brief`, `record`) and the resource `cairn://brief`, through the real SDK clients of
 * each protocol era on every target: listed with their arguments, the brief the same text as
 * `space` view `brief` for the same caller (key, agent, X-Svc-Project), its budget taken as a
 * string and checked, and unknown names and URIs refused as MCP errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, type ClientKind, connect, entryId, type McpSession, rawPost } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const PROJECT = 'https://github.com/Acme/Shop.git';

/** A protocol error as either SDK client throws it. */
interface RpcError {
  code: number;
  message: string;
  data?: unknown;
}

async function refusal(p: Promise<unknown>): Promise<RpcError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err, 'the request was answered, not refused').toBeDefined();
  return err as RpcError;
}

describe.each(TARGETS)('prompts and resources on %s', (db) => {
  let t: TestServer;
  let key: string;
  const sessions: McpSession[] = [];
  const open = async (kind: ClientKind, agent: string, project = PROJECT) => {
    const s = await connect(kind, t.mcpUrl, { key, agent, project });
    sessions.push(s);
    return s;
  };

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
    const writer = await open('v2', 'alice');
    for (const [tool, args] of [
      ['remember', { content: 'Run the tests with npm test -- --run; watch mode hangs CI.', tags: ['convention'] }],
      ['observe', { content: 'Checkout crashed with a deadlock in reserveSlots', source: 'pagerduty' }],
    ] as const) {
      expect((await writer.call(tool, args)).isError).toBe(false);
    }
  });
  afterAll(async () => {
    for (const s of sessions) await s.close().catch(() => {});
    await t?.close();
  });

  it('advertises prompts and resources in initialize on every 2025 revision', async () => {
    for (const version of ['2025-03-26', '2025-06-18', '2025-11-25']) {
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
      const { result } = (await res.json()) as { result: { capabilities: Record<string, unknown> } };
      expect(result.capabilities, version).toMatchObject({ tools: {}, prompts: {}, resources: {} });
    }
  });

  it('advertises them in server/discover on 2026-07-28', async () => {
    const res = await rawPost(
      t.mcpUrl,
      {
        jsonrpc: '2.0',
        id: 1,
        method: 'server/discover',
        params: {
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'raw', version: '1' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      },
      { 'X-Svc-Key': key, 'mcp-protocol-version': '2026-07-28', 'mcp-method': 'server/discover' },
    );
    const { result } = (await res.json()) as { result: { capabilities: Record<string, unknown> } };
    expect(result.capabilities).toMatchObject({ tools: {}, prompts: {}, resources: {} });
  });

  describe.each(CLIENT_KINDS)('with the %s client', (kind) => {
    let s: McpSession;
    beforeAll(async () => {
      s = await open(kind, `agent-${kind}`);
    });

    const spaceBrief = async (args: Record<string, unknown> = {}) => {
      const r = await s.call('space', { view: 'brief', ...args });
      expect(r.isError, r.text).toBe(false);
      return r.text;
    };
    const promptText = async (args?: Record<string, string>) => {
      const r = await s.getPrompt('brief', args);
      expect(r.messages).toHaveLength(1);
      expect(r.messages[0]?.role).toBe('user');
      expect(r.messages[0]?.content.type).toBe('text');
      return r.messages[0]?.content.text ?? '';
    };

    it('lists the prompts brief and record with their arguments', async () => {
      if (kind === 'v2-modern') expect(s.protocolVersion()).toBe('2026-07-28');
      const prompts = await s.listPrompts();
      expect(prompts.map((p) => p.name)).toEqual(['brief', 'record']);
      const [brief, record] = prompts;
      expect(brief?.description).toMatch(/before starting work/);
      expect(brief?.arguments).toEqual([
        { name: 'budget_chars', description: expect.stringMatching(/500-50000 \(default 4000\)/), required: false },
      ]);
      expect(record?.description).toMatch(/record in Cairn/);
      expect(record?.arguments ?? []).toEqual([]);
    });

    it("gets the brief prompt: the caller's space brief as a user message, a new decision in it", async () => {
      const before = await promptText();
      expect(before).toBe(await spaceBrief());
      expect(before).toMatch(/^Brief for project github\.com\/acme\/shop \(with org-wide entries\)/);
      expect(before).toContain('Run the tests with npm test -- --run');
      const decision = `Use Kysely for database access (${kind})`;
      const r = await s.call('decide', { content: decision, rationale: 'slot reservation needs row locks' });
      expect(r.isError, r.text).toBe(false);
      const after = await promptText();
      expect(after).toContain(
        `${decision} Why: slot reservation needs row locks (agent-${kind}, id ${entryId(r).slice(-8)})`,
      );
      expect(after).toBe(await spaceBrief());
    });

    it('takes budget_chars as a string and keeps within it, as space does', async () => {
      const small = await promptText({ budget_chars: '500' });
      expect(small.length).toBeLessThanOrEqual(500);
      expect(small).toBe(await spaceBrief({ budget_chars: 500 }));
      expect(await promptText({ budget_chars: ' 20000 ' })).toBe(await spaceBrief({ budget_chars: 20000 }));
      // a form's blank field is the default
      expect(await promptText({ budget_chars: '' })).toBe(await spaceBrief());
    });

    it.each([
      ['lots', /budget_chars must be a whole number of characters from 500 to 50000, such as 4000, not "lots"/],
      ['100', /budget_chars must be .* from 500 to 50000.*not "100"/],
      ['4000.5', /budget_chars must be a whole number/],
      ['-4000', /budget_chars must be a whole number/],
      ['60000', /budget_chars must be .*not "60000"/],
    ])('refuses budget_chars %j with -32602 naming it', async (value, message) => {
      const err = await refusal(s.getPrompt('brief', { budget_chars: value }));
      expect(err.code).toBe(-32602);
      expect(err.message).toMatch(message);
    });

    it('refuses an argument a prompt does not take, and an unknown prompt', async () => {
      const extra = await refusal(s.getPrompt('brief', { budget: '4000' }));
      expect(extra).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/no argument "budget"; it takes budget_chars/),
      });
      const onRecord = await refusal(s.getPrompt('record', { topic: 'x' }));
      expect(onRecord.message).toMatch(/it takes no arguments/);
      const unknown = await refusal(s.getPrompt('summarise'));
      expect(unknown).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Unknown prompt "summarise"; prompts\/list has brief and record/),
      });
    });

    it('gets the record prompt: what to record, with which tools, and what not to', async () => {
      const r = await s.getPrompt('record');
      expect(r.messages).toHaveLength(1);
      expect(r.messages[0]?.role).toBe('user');
      const text = r.messages[0]?.content.text ?? '';
      for (const tool of ['decide', 'remember', 'observe', 'recall']) expect(text).toMatch(new RegExp(`\\b${tool}\\b`));
      expect(text).toMatch(/rationale/);
      expect(text).toMatch(/supersedes set to that failure's id/);
      expect(text).toMatch(/do not record what memory already holds/);
      expect(text).toMatch(/trivial/);
      expect(text.length).toBeLessThan(1600);
    });

    it('lists and reads the resource cairn://brief: the same brief, as markdown', async () => {
      const resources = await s.listResources();
      expect(resources).toEqual([
        expect.objectContaining({
          uri: 'cairn://brief',
          name: 'brief',
          mimeType: 'text/markdown',
          description: expect.stringMatching(/before starting work/),
        }),
      ]);
      const read = await s.readResource('cairn://brief');
      expect(read.contents).toEqual([
        expect.objectContaining({ uri: 'cairn://brief', mimeType: 'text/markdown', text: await spaceBrief() }),
      ]);
    });

    it('refuses an unknown resource URI with the MCP resource-not-found error', async () => {
      const err = await refusal(s.readResource('cairn://nothing'));
      expect(err).toMatchObject({
        code: -32602,
        message: expect.stringMatching(/Unknown resource "cairn:\/\/nothing"; resources\/list has cairn:\/\/brief/),
        data: { uri: 'cairn://nothing' },
      });
    });
  });

  it("briefs the caller's own project: another X-Svc-Project, another brief", async () => {
    const other = await open('v2-modern', 'alice', '/srv/elsewhere');
    expect((await other.call('decide', { content: 'Deploy elsewhere on Mondays', rationale: 'quiet' })).isError).toBe(
      false,
    );
    const prompt = await other.getPrompt('brief');
    const text = prompt.messages[0]?.content.text ?? '';
    expect(text).toMatch(/^Brief for project \/srv\/elsewhere/);
    expect(text).toContain('Deploy elsewhere on Mondays');
    expect(text).not.toContain('npm test');
    const read = await other.readResource('cairn://brief');
    expect(read.contents[0]?.text).toBe(text);
  });
});
