/** Reads a request body up to a byte limit, answering 413 before parsing anything larger. */
import { LimitExceeded, ParseError } from '../domain/errors';

/** A body past the limit: 413, before it is parsed. */
export const bodyTooLarge = (maxBytes: number) =>
  new LimitExceeded(`request body is larger than ${maxBytes} bytes`, 413);
/** A body that stopped arriving. */
export const bodyBrokeOff = () =>
  new ParseError('the request body broke off: the client went away or the connection failed');

export async function readLimited(request: Request, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => bodyTooLarge(maxBytes);
  const declared = Number(request.headers.get('content-length') ?? Number.NaN);
  if (declared > maxBytes) throw tooLarge();
  try {
    // a declared length within the limit bounds what can arrive: read it whole, without a stream
    // (on Node the server reads it straight from the socket)
    if (Number.isInteger(declared) && declared >= 0) return new Uint8Array(await request.arrayBuffer());
    return await readCapped(request.body, maxBytes, tooLarge);
  } catch (err) {
    if (err instanceof LimitExceeded) throw err;
    throw bodyBrokeOff();
  }
}

/** Reads a body stream whole, throwing `tooLarge()` as soon as it passes `maxBytes`. */
export async function readCapped(
  body: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  if (!body) return new Uint8Array();
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

/** One decoder for every body: `decode` without `stream` keeps no state between calls. */
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });

/** Parses a JSON body; a body that is not JSON gets JSON-RPC -32700 with HTTP 400. */
export function parseJson(bytes: Uint8Array): unknown {
  try {
    return JSON.parse(UTF8.decode(bytes));
  } catch {
    throw new ParseError();
  }
}
