/** Bad input gets a clear error naming what to fix, and loses nothing already stored. */
import { connect as tcp } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connect, type McpSession, rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

describe.each(TARGETS)('bad input on %s', (db) => {
  let t: TestServer;
  let key: string;
  let s: McpSession;
  let keep: string;

  beforeAll(async () => {
    t = await startTestServer(db, {
      CAIRN_MAX_BODY_BYTES: String(256 * 1024),
      CAIRN_MAX_ARTIFACT_BYTES: String(64 * 1024),
    });
    ({ key } = await t.createOrg('acme'));
    s = await connect('v2', t.mcpUrl, { key, agent: 'tester' });
    keep = (
      (await s.call('remember', { content: 'precious memory that must survive' })).structured.entry as { id: string }
    ).id;
  });
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  /** A refused call as the model reads it: a tool result with isError, its text (MCP 2025-11-25, SEP-1303). */
  async function toolError(tool: string, args: Record<string, unknown>) {
    const res = await rawPost(t.mcpUrl, toolCall(tool, args), { 'X-Svc-Key': key });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.error, 'not a protocol error: the model would never see it').toBeUndefined();
    expect(body.result?.isError, `${tool} ${JSON.stringify(args).slice(0, 80)} should be refused`).toBe(true);
    const text = (body.result.content as { text: string }[]).map((c) => c.text).join('\n');
    expect(text).toMatch(/^Invalid arguments, nothing was done; fix and call again: /);
    return text;
  }

  it.each([
    ['remember', {}, 'content'],
    ['remember', { content: '' }, 'content'],
    ['remember', { content: 42 }, 'content'],
    ['remember', { content: 'ok', ttl_seconds: -5 }, 'ttl_seconds'],
    ['remember', { content: 'ok', metadata: 'not an object' }, 'metadata'],
    ['remember', { content: 'ok', metadata: { big: 'x'.repeat(5000) } }, 'metadata'],
    ['remember', { content: 'ok', supersedes: 'not-an-id' }, 'supersedes'],
    ['remember', { content: 'ok', scope: 'galaxy' }, 'scope'],
    ['remember', { content: 'ok', tags: ['a', 7] }, 'tags.1'],
    ['decide', { content: 'only a decision' }, 'rationale'],
    ['plan', { steps: [] }, 'title'],
    ['plan', { title: 't', steps: [{ text: 'x', status: 'sleeping' }] }, 'steps.0.status'],
    ['plan', { title: 't', status: 'done' }, 'status'],
    ['recall', {}, 'query'],
    ['recall', { query: 'x', limit: 1000 }, 'limit'],
    ['recall', { query: 'x', since: 'yesterday' }, 'since'],
    ['artifact_put', { name: 'a.txt' }, 'content'],
    ['artifact_put', { name: 'a.txt', content: 'x', content_base64: 'eA==' }, 'content'],
    ['artifact_put', { name: 'a.txt', content_base64: '***' }, 'content_base64'],
    ['artifact_put', { name: 'bad\nname', content: 'x' }, 'name'],
    ['artifact_get', {}, 'id'],
    ['forget', {}, 'id'],
    ['forget', { ids: Array.from({ length: 101 }, () => '01900000-0000-7000-8000-000000000000') }, 'ids'],
    ['space', { view: 'everything' }, 'view'],
    // an argument the tool does not take is refused by name, never dropped
    ['note', { content: 'x', supersedes: '01900000-0000-7000-8000-000000000000' }, 'supersedes'],
    ['recall', { query: 'x', kind: 'memory' }, 'kind'],
  ] as const)('%s %j → a tool error naming %s', async (tool, args, field) => {
    expect(await toolError(tool, args as Record<string, unknown>)).toContain(`${field}: `);
  });

  it.each(CLIENT_KINDS)(
    'reads the same with the %s client; on 2026-07-28 the fields come structured too',
    async (kind) => {
      const c = await connect(kind, t.mcpUrl, { key, agent: 'tester' });
      try {
        const r = await c.call('remember', { content: '' });
        expect(r.isError).toBe(true);
        expect(r.text).toBe('Invalid arguments, nothing was done; fix and call again: content: must not be empty');
        const fields = [{ field: 'content', message: 'must not be empty' }];
        expect(r.structured).toEqual(kind === 'v2-modern' ? { error: 'invalid_arguments', fields } : {});
        // a rule the tool itself checks reads the same way, the field named once
        const both = await c.call('artifact_get', {});
        expect(both.isError).toBe(true);
        expect(both.text).toBe(
          'Invalid arguments, nothing was done; fix and call again: id: pass exactly one of id or name',
        );
      } finally {
        await c.close();
      }
    },
  );

  it('names the arguments a tool takes when it is sent one it does not', async () => {
    expect(await toolError('decide', { content: 'x', rationale: 'y', source: 'ci' })).toBe(
      'Invalid arguments, nothing was done; fix and call again: source: decide takes no such argument; it takes content, rationale, supersedes, paths, commit, tags, metadata, scope, project',
    );
  });

  it('refuses NUL bytes and unpaired surrogates in text with a clear message', async () => {
    expect(await toolError('remember', { content: 'before\u0000after' })).toMatch(/content: must not contain NUL/);
    expect(await toolError('note', { content: 'broken \ud800 pair' })).toMatch(/content: must be valid Unicode/);
    expect(await toolError('observe', { content: 'x', metadata: { k: 'a\u0000b' } })).toMatch(/metadata/);
  });

  it('refuses oversized content and artifacts, naming the limit', async () => {
    expect(await toolError('remember', { content: 'x'.repeat(16_385) })).toMatch(
      /content: must be at most 16384 characters/,
    );
    expect(await toolError('artifact_put', { name: 'big.bin', content: 'y'.repeat(65 * 1024) })).toMatch(
      /content: .*limit is 65536 bytes/,
    );
  });

  it('refuses a whole number past what the database stores with a clear message, not an unexpected error', async () => {
    expect(await toolError('artifact_get', { name: 'a', version: 2_147_483_648 })).toMatch(
      /a number is too large: versions and counts go up to 2147483647/,
    );
  });

  it('answers 413 for a body over the limit, before parsing it', async () => {
    const res = await rawPost(t.mcpUrl, toolCall('remember', { content: 'z'.repeat(300 * 1024) }), {
      'X-Svc-Key': key,
    });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32013 } });
  });

  /** Sends `head` and `body` over a socket of its own; the response's text, or '' when `leave` closes it first. */
  function rawSocket(head: string, body: string, leave = false): Promise<string> {
    const { hostname, port } = new URL(t.mcpUrl);
    return new Promise((resolve, reject) => {
      let got = '';
      const socket = tcp(Number(port), hostname, () => {
        socket.write(`${head}\r\n${body}`);
        if (leave) setTimeout(() => socket.destroy(), 200);
      });
      socket.on('data', (d) => {
        got += d.toString();
      });
      socket.on('close', () => resolve(got));
      socket.on('error', (err) => (leave ? resolve(got) : reject(err)));
      socket.setTimeout(10_000, () => socket.destroy());
    });
  }

  const head = (extra: string) =>
    `POST /mcp HTTP/1.1\r\nHost: ${new URL(t.mcpUrl).host}\r\nContent-Type: application/json\r\n` +
    `Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n` +
    `X-Svc-Key: ${key}\r\nConnection: close\r\n${extra}`;

  it('answers 413 for a streamed body (no Content-Length) once it passes the limit, and serves on', async () => {
    const chunk = JSON.stringify(toolCall('remember', { content: 'y'.repeat(300 * 1024) }));
    const chunked = `${chunk.length.toString(16)}\r\n${chunk}\r\n0\r\n\r\n`;
    const answer = await rawSocket(head('Transfer-Encoding: chunked\r\n'), chunked);
    expect(answer).toMatch(/^HTTP\/1\.1 413 /);
    expect(answer).toContain('-32013');
    const small = JSON.stringify(toolCall('recall', { query: 'precious memory' }));
    const ok = await rawSocket(
      head('Transfer-Encoding: chunked\r\n'),
      `${small.length.toString(16)}\r\n${small}\r\n0\r\n\r\n`,
    );
    expect(ok).toMatch(/^HTTP\/1\.1 200 /);
    expect(ok).toContain(keep);
  });

  it('writes nothing for a client that leaves in the middle of its body', async () => {
    const body = JSON.stringify(toolCall('remember', { content: `left halfway ${'z'.repeat(100_000)}` }));
    await rawSocket(head(`Content-Length: ${body.length}\r\n`), body.slice(0, 40_000), true);
    await new Promise((r) => setTimeout(r, 300));
    const found = await s.call('recall', { query: 'left halfway' });
    expect(found.text).not.toContain('left halfway');
    expect((await s.call('recall', { query: 'precious memory' })).text).toContain(keep);
  });

  it('answers a body that is not JSON with a parse error', async () => {
    const res = await rawPost(t.mcpUrl, '{not json', { 'X-Svc-Key': key });
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: -32700, message: expect.stringMatching(/Parse error/) });
  });

  it('lost nothing: the memory stored before all of this is intact and nothing else was written', async () => {
    const r = await s.call('recall', { query: '', limit: 100 });
    expect((r.structured.hits as { id: string; content: string }[]).map((h) => [h.id, h.content])).toEqual([
      [keep, 'precious memory that must survive'],
    ]);
    const ledger = await s.call('space', { view: 'ledger' });
    expect((ledger.structured.events as { op: string }[]).map((e) => e.op)).toEqual(['remember', 'key.create']);
  });
});
