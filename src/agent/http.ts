/**
 * One POST, for the agent side's MCP client (mcp.ts). A hook is a new process each time, so what a
 * first request costs to set up counts on every prompt: here node:http's client took 15 ms from
 * loading to a connected socket, fetch 60–100 ms (undici is set up on first use), a plain TCP
 * socket 3–5 ms. So an http:// server is spoken to over node:net, HTTP/1.1 written and read here
 * (one request per connection, `connection: close`; a body by content-length, chunks or the close);
 * an https:// one through node:https, whose TLS handshake costs more than its set-up.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

export interface RawResponse {
  status: number;
  header(name: string): string | null;
  body: string;
}

/** Largest answer read (a brief of 50,000 characters, a page of hits, with room). */
const MAX_ANSWER_BYTES = 16 * 1024 * 1024;

/**
 * POSTs `body` on a connection of its own (none is left open to hold the process), within
 * `timeoutMs` (an Error named TimeoutError); `onSent` is called once the request is written.
 * Header values are sent as given, each character a byte: no line breaks or control characters.
 */
export function post(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  onSent?: () => void,
): Promise<RawResponse> {
  for (const [name, value] of Object.entries(headers)) {
    if (/[\u0000-\u0008\u000a-\u001f\u007f]/.test(value) || /[^\u0000-\u00ff]/.test(value)) {
      return Promise.reject(new Error(`the ${name} header holds a character it cannot carry`));
    }
  }
  return url.startsWith('https:')
    ? postTls(url, headers, body, timeoutMs, onSent)
    : postPlain(new URL(url), headers, body, timeoutMs, onSent);
}

function timeoutError(ms: number): Error {
  const err = new Error(`no answer within ${ms} ms`);
  err.name = 'TimeoutError';
  return err;
}

function postPlain(
  url: URL,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  onSent?: () => void,
): Promise<RawResponse> {
  const payload = Buffer.from(body, 'utf8');
  const head = [
    `POST ${url.pathname}${url.search} HTTP/1.1`,
    `host: ${url.host}`,
    ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
    `content-length: ${payload.length}`,
    'connection: close',
    '',
    '',
  ].join('\r\n');
  return new Promise((resolve, reject) => {
    const socket: Socket = process.getBuiltinModule('node:net').connect({
      host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
      port: Number(url.port || 80),
    });
    const timer = setTimeout(() => socket.destroy(timeoutError(timeoutMs)), timeoutMs);
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      fn();
    };
    socket.on('error', (err) => settle(() => reject(err)));
    socket.on('connect', () => {
      socket.write(Buffer.concat([Buffer.from(head, 'latin1'), payload]));
      onSent?.();
    });
    const whole = (closed: boolean) => {
      try {
        const res = parseResponse(Buffer.concat(chunks), closed);
        if (res) settle(() => resolve(res));
        else if (closed) settle(() => reject(new Error('the server closed the connection without answering')));
      } catch (err) {
        settle(() => reject(err));
      }
    };
    socket.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_ANSWER_BYTES) return settle(() => reject(new Error(`answer over ${MAX_ANSWER_BYTES} bytes`)));
      chunks.push(chunk);
      whole(false);
    });
    socket.on('end', () => whole(true));
  });
}

/**
 * An HTTP/1.1 response from its bytes, once it is whole: its body by content-length, by chunks,
 * or (`closed`) all that came before the connection closed. Undefined while it is not whole.
 */
export function parseResponse(bytes: Buffer, closed: boolean): RawResponse | undefined {
  const end = bytes.indexOf('\r\n\r\n');
  if (end < 0) return undefined;
  const [statusLine = '', ...lines] = bytes.subarray(0, end).toString('latin1').split('\r\n');
  const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
  if (!status) throw new Error(`not an HTTP answer: ${JSON.stringify(statusLine.slice(0, 40))}`);
  const fields = new Map<string, string>();
  for (const line of lines) {
    const colon = line.indexOf(':');
    if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const rest = bytes.subarray(end + 4);
  let body: Buffer | undefined;
  if (/chunked/i.test(fields.get('transfer-encoding') ?? '')) body = unchunked(rest);
  else if (fields.has('content-length')) {
    const length = Number(fields.get('content-length'));
    body = rest.length >= length ? rest.subarray(0, length) : undefined;
  } else body = closed ? rest : undefined;
  if (!body) return undefined;
  const text = body.toString('utf8');
  return { status: Number(status), header: (name) => fields.get(name.toLowerCase()) ?? null, body: text };
}

/** A chunked body decoded, once its last chunk has come. */
function unchunked(bytes: Buffer): Buffer | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = bytes.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = Number.parseInt(bytes.subarray(at, eol).toString('latin1'), 16);
    if (Number.isNaN(size)) throw new Error('a malformed chunk in the answer');
    if (size === 0) return Buffer.concat(parts);
    if (bytes.length < eol + 2 + size + 2) return undefined;
    parts.push(bytes.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

/** Through node:https (loaded when first needed). */
function postTls(
  url: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  onSent?: () => void,
): Promise<RawResponse> {
  const { request } = process.getBuiltinModule('node:https');
  return new Promise((resolve, reject) => {
    const req = request(url, {
      method: 'POST',
      headers: { ...headers, 'content-length': Buffer.byteLength(body) },
      agent: false,
    });
    const timer = setTimeout(() => req.destroy(timeoutError(timeoutMs)), timeoutMs);
    const fail = (err: Error) => {
      clearTimeout(timer);
      reject(err);
    };
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > MAX_ANSWER_BYTES) req.destroy(new Error(`answer over ${MAX_ANSWER_BYTES} bytes`));
        else chunks.push(chunk);
      });
      res.on('error', fail);
      res.on('end', () => {
        clearTimeout(timer);
        const one = (name: string) => {
          const v = res.headers[name];
          return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
        };
        resolve({ status: res.statusCode ?? 0, header: one, body: Buffer.concat(chunks).toString('utf8') });
      });
    });
    req.end(body, onSent);
  });
}
