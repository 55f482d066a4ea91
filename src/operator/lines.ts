/**
 * An NDJSON byte stream's lines, read in time linear in its size and bounded per line (an
 * export's import and its offline verification; docs/design.md, "Export and import").
 */
import { Invalid } from '../domain/errors';

/**
 * The longest line an export holds: an artifact of 5 MiB (the contract's limit) is some 6.7 MiB
 * as base64, plus its fields; and no write took a request body over 8 MiB.
 */
export const MAX_LINE_BYTES = 8 << 20;
/** Between this many bytes read, the reader lets other work run (other tenants' requests). */
const YIELD_BYTES = 1 << 20;

const yieldNow = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * The lines of a byte stream (UTF-8, `\n`-separated), each trimmed; blank lines are yielded too,
 * so that a line's number is its place in the file. Each byte is looked at once: a line is kept
 * as the chunks it came in and joined once whole. A line over `maxBytes`, or not UTF-8, is refused
 * by its number.
 */
export async function* linesOf(
  chunks: AsyncIterable<Uint8Array | string>,
  maxBytes = MAX_LINE_BYTES,
): AsyncGenerator<string> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const encoder = new TextEncoder();
  let parts: Uint8Array[] = [];
  let size = 0;
  let n = 0;
  let sinceYield = 0;
  const tooLong = () =>
    new Invalid(
      'file',
      `line ${n + 1} is longer than ${maxBytes} bytes, the most a line of an export holds (an artifact of 5 MiB as base64, with its fields): this is not a file cairn export wrote`,
    );
  const line = (last: Uint8Array): string => {
    let bytes = last;
    if (parts.length) {
      bytes = new Uint8Array(size + last.length);
      let at = 0;
      for (const p of parts) {
        bytes.set(p, at);
        at += p.length;
      }
      bytes.set(last, at);
    }
    parts = [];
    size = 0;
    n++;
    try {
      // a line never ends inside a character: "\n" is no byte of a longer UTF-8 sequence
      return decoder.decode(bytes).trim();
    } catch {
      throw new Invalid('file', `line ${n} is not UTF-8 text`);
    }
  };
  for await (const raw of chunks) {
    const chunk = typeof raw === 'string' ? encoder.encode(raw) : raw;
    let start = 0;
    for (let nl = chunk.indexOf(10); nl >= 0; nl = chunk.indexOf(10, start)) {
      if (size + nl - start > maxBytes) throw tooLong();
      yield line(chunk.subarray(start, nl));
      start = nl + 1;
    }
    if (start < chunk.length) {
      size += chunk.length - start;
      if (size > maxBytes) throw tooLong();
      parts.push(chunk.slice(start));
    }
    sinceYield += chunk.length;
    if (sinceYield >= YIELD_BYTES) {
      sinceYield = 0;
      await yieldNow();
    }
  }
  if (size > 0) {
    const last = line(new Uint8Array(0));
    if (last) yield last;
  }
}
