/**
 * /mcp on Node, served from the socket: the request is read as node:http delivers it (its parsed
 * headers, its body in chunks) and a plain call's JSON answer is written straight back, with no
 * web Request, Headers or Response made on the way (docs/design.md, "CPU per call"). The handler
 * is the one every runtime uses (src/http/mcp.ts); what needs a web Request (the SDK's answers)
 * gets one made from what was read, and a web Response it returns is written out as it streams.
 * Every other route goes through Hono (@hono/node-server's listener).
 */
import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { bodyBrokeOff, bodyTooLarge } from '../http/body';
import type { McpRequest } from '../http/mcp';
import type { McpAnswer } from '../mcp/server';

type Handler = (req: McpRequest) => Promise<McpAnswer>;

/** A Host header a URL can be made of (anything else goes to Hono, which refuses it as before). */
const HOST = /^[a-z0-9.\-_~%!$&'()*+,;=:[\]]+$/i;

/** Whether a request is for /mcp (with or without a query) and names a usable host, as the handler needs. */
export function isMcpRequest(req: IncomingMessage): boolean {
  const url = req.url ?? '';
  return (url === '/mcp' || url.startsWith('/mcp?')) && HOST.test(req.headers.host ?? '');
}

/** Serves /mcp requests through `handler`; `onError` logs what could not be answered. */
export function nodeMcpListener(handler: Handler, onError: (err: unknown) => void): RequestListener {
  return (incoming, outgoing) => {
    handler(view(incoming))
      .then((answer) => write(outgoing, answer))
      .catch((err) => {
        onError(err);
        if (!outgoing.headersSent) outgoing.writeHead(500, { 'content-type': 'application/json' });
        outgoing.end('{"jsonrpc":"2.0","error":{"code":-32603,"message":"internal error"},"id":null}');
      });
  };
}

function view(req: IncomingMessage): McpRequest {
  const headers = req.headers;
  const host = headers.host as string;
  let bytes: Uint8Array | undefined;
  const origin = () => new URL(`http://${host}`).origin;
  return {
    method: req.method ?? 'GET',
    header: (name) => {
      const v = headers[name];
      return Array.isArray(v) ? v.join(', ') : v;
    },
    host: () => host,
    async body(maxBytes) {
      bytes = await readBody(req, maxBytes);
      return bytes;
    },
    web() {
      const web = new Headers();
      for (const [name, v] of Object.entries(headers)) {
        for (const one of Array.isArray(v) ? v : [v ?? '']) web.append(name, one);
      }
      const init: RequestInit = { method: req.method ?? 'GET', headers: web };
      if (bytes && req.method !== 'GET' && req.method !== 'HEAD') init.body = bytes as Uint8Array<ArrayBuffer>;
      return new Request(`${origin()}${req.url ?? '/mcp'}`, init);
    },
    origin,
    peer: () => req.socket.remoteAddress,
  };
}

/** The body whole; past `maxBytes` (declared or received) a 413, and the rest is left to drain. */
function readBody(req: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  if (Number(req.headers['content-length'] ?? Number.NaN) > maxBytes) return Promise.reject(bodyTooLarge(maxBytes));
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      reject(err);
    };
    req.on('data', (chunk: Buffer) => {
      if (done) return;
      size += chunk.length;
      if (size > maxBytes) fail(bodyTooLarge(maxBytes));
      else chunks.push(chunk);
    });
    req.on('end', () => {
      if (done) return;
      done = true;
      resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    });
    const broke = () => fail(bodyBrokeOff());
    req.on('error', broke);
    req.on('close', () => {
      if (!req.complete) broke();
    });
  });
}

async function write(res: ServerResponse, answer: McpAnswer): Promise<void> {
  if (!(answer instanceof Response)) {
    res.writeHead(answer.status, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(answer.json),
    });
    res.end(answer.json);
    return;
  }
  const headers: Record<string, string | string[]> = {};
  answer.headers.forEach((value, name) => {
    if (name !== 'set-cookie') headers[name] = value;
  });
  const cookies = answer.headers.getSetCookie();
  if (cookies.length) headers['set-cookie'] = cookies;
  const streams = answer.body !== null && (headers['content-type'] ?? '').toString().startsWith('text/event-stream');
  if (!streams) {
    const body = Buffer.from(await answer.arrayBuffer());
    res.writeHead(answer.status, { ...headers, 'content-length': body.length });
    res.end(body);
    return;
  }
  res.writeHead(answer.status, headers);
  Readable.fromWeb(answer.body as NodeReadableStream<Uint8Array>)
    .on('error', () => res.destroy())
    .pipe(res);
}
