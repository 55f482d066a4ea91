/**
 * The agent side's HTTP/1.1 over a plain socket (src/agent/http.ts): answers by content-length, by
 * chunks and by the close, from a real node:http server and from raw bytes; a connection closed
 * without an answer, a header that would break the request, and a server too slow are failures.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseResponse, post } from '../../src/agent/http';

const portOf = (s: Server | TcpServer) => (s.address() as AddressInfo).port;

describe('post over a plain socket', () => {
  let http: Server;
  let raw: TcpServer;
  const seen: { headers: Record<string, unknown>; body: string }[] = [];

  beforeAll(async () => {
    http = createServer((req, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ headers: req.headers, body });
        if (req.url === '/chunked') {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.write('{"a":');
          setTimeout(() => res.end('"ü"}'), 20);
        } else if (req.url === '/slow') {
          setTimeout(() => res.end('late'), 2000);
        } else {
          res.writeHead(401, { 'content-type': 'application/json', 'retry-after': '7' });
          res.end(JSON.stringify({ echo: body }));
        }
      });
    });
    // accepts, reads the request, closes without a word
    raw = createTcpServer((s) => s.once('data', () => s.end()));
    await Promise.all([
      new Promise<void>((r) => http.listen(0, '127.0.0.1', r)),
      new Promise<void>((r) => raw.listen(0, '127.0.0.1', r)),
    ]);
  });
  afterAll(() => {
    http.close();
    raw.close();
  });

  it('sends the headers and body, and reads an answer by its length, status and headers included', async () => {
    const res = await post(`http://127.0.0.1:${portOf(http)}/mcp`, { 'x-svc-agent': 'zoÃ«' }, '{"q":"é"}', 5000);
    expect(res.status).toBe(401);
    expect(res.header('Retry-After')).toBe('7');
    expect(JSON.parse(res.body)).toEqual({ echo: '{"q":"é"}' });
    expect(seen.at(-1)?.headers).toMatchObject({ 'x-svc-agent': 'zoÃ«', connection: 'close', 'content-length': '10' });
  });

  it('reads a chunked answer, UTF-8 across chunks', async () => {
    const sent: string[] = [];
    const res = await post(`http://127.0.0.1:${portOf(http)}/chunked`, {}, '{}', 5000, () => sent.push('sent'));
    expect(res).toMatchObject({ status: 200, body: '{"a":"ü"}' });
    expect(sent).toEqual(['sent']);
  });

  it('fails when the server closes without answering, is too slow, or a header holds a line break', async () => {
    await expect(post(`http://127.0.0.1:${portOf(raw)}/mcp`, {}, '{}', 5000)).rejects.toThrow(
      'the server closed the connection without answering',
    );
    await expect(post(`http://127.0.0.1:${portOf(http)}/slow`, {}, '{}', 200)).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    await expect(
      post(`http://127.0.0.1:${portOf(http)}/mcp`, { 'x-svc-project': 'a\r\nx-evil: 1' }, '', 5000),
    ).rejects.toThrow('the x-svc-project header holds a character it cannot carry');
  });
});

describe('parseResponse', () => {
  const bytes = (s: string) => Buffer.from(s, 'latin1');

  it('waits for the whole body, whichever way its end is told', () => {
    expect(parseResponse(bytes('HTTP/1.1 200 OK\r\ncontent-length: 5\r\n\r\nabc'), false)).toBeUndefined();
    expect(parseResponse(bytes('HTTP/1.1 200 OK\r\ncontent-length: 3\r\n\r\nabc'), false)?.body).toBe('abc');
    expect(
      parseResponse(bytes('HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n3\r\nabc\r\n'), false),
    ).toBeUndefined();
    expect(
      parseResponse(
        bytes('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n'),
        false,
      )?.body,
    ).toBe('abcde');
    expect(parseResponse(bytes('HTTP/1.0 503 Busy\r\n\r\nall of it'), false)).toBeUndefined();
    expect(parseResponse(bytes('HTTP/1.0 503 Busy\r\n\r\nall of it'), true)).toMatchObject({
      status: 503,
      body: 'all of it',
    });
  });

  it('refuses what is not HTTP', () => {
    expect(() => parseResponse(bytes('SSH-2.0-OpenSSH\r\n\r\n'), true)).toThrow(/not an HTTP answer/);
  });
});
