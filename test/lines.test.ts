/**
 * The export reader's lines (src/operator/lines.ts): numbered as in the file, split in time linear in the
 * bytes (a long line in small chunks used to be rescanned at every chunk), refused past the limit
 * by number before the line is whole, and read without holding the event loop.
 */
import { describe, expect, it } from 'vitest';
import { linesOf, MAX_LINE_BYTES } from '../src/operator/lines';

async function* chunked(bytes: Uint8Array, size: number) {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, at + size);
}

async function all(lines: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const l of lines) out.push(l);
  return out;
}

const utf8 = (s: string) => new TextEncoder().encode(s);

describe('linesOf', () => {
  it('yields every line, blank ones too, so a number is its place; a character split across chunks is whole', async () => {
    const text = 'one\n\n  two  \r\nthré€ 🪨\nlast';
    for (const size of [1, 2, 3, 7, 1024]) {
      expect(await all(linesOf(chunked(utf8(text), size)))).toEqual(['one', '', 'two', 'thré€ 🪨', 'last']);
    }
    expect(await all(linesOf(chunked(utf8('a\nb\n'), 1)))).toEqual(['a', 'b']);
  });

  it('refuses bytes that are not UTF-8, by line', async () => {
    const bytes = new Uint8Array([...utf8('fine\n'), 0xff, 0xfe, 10]);
    await expect(all(linesOf(chunked(bytes, 3)))).rejects.toThrow(/line 2 is not UTF-8 text/);
  });

  it('refuses a line over the limit by its number, as soon as it is over', async () => {
    async function* endless() {
      yield utf8('{"type":"cairn-export"}\n');
      const block = new Uint8Array(1 << 16).fill(120);
      for (let i = 0; ; i++) {
        if (i > (MAX_LINE_BYTES >> 16) + 4) throw new Error('read past the limit');
        yield block;
      }
    }
    await expect(all(linesOf(endless()))).rejects.toThrow(`line 2 is longer than ${MAX_LINE_BYTES} bytes`);
    await expect(all(linesOf(chunked(utf8(`ok\n${'x'.repeat(11)}\n`), 4), 10))).rejects.toThrow(
      'line 2 is longer than 10 bytes',
    );
    expect(await all(linesOf(chunked(utf8(`ok\n${'x'.repeat(10)}\n`), 4), 10))).toEqual(['ok', 'x'.repeat(10)]);
  });

  it('splits a line of the largest size in 1 KiB chunks in linear time', async () => {
    const line = new Uint8Array(MAX_LINE_BYTES - 1).fill(97);
    line[line.length - 1] = 10;
    const started = performance.now();
    const [read] = await all(linesOf(chunked(line, 1024)));
    const ms = performance.now() - started;
    expect(read?.length).toBe(MAX_LINE_BYTES - 2);
    // rescanning the line at each of its 8,192 chunks took minutes; once through takes well under a second
    expect(ms).toBeLessThan(5_000);
  });

  it('lets timers run while it reads many lines', async () => {
    const body = utf8('{"type":"event","seq":1}\n'.repeat(400_000)); // 10 MB
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    try {
      let n = 0;
      for await (const _ of linesOf(chunked(body, 1 << 20))) n++;
      expect(n).toBe(400_000);
    } finally {
      clearInterval(timer);
    }
    expect(ticks).toBeGreaterThanOrEqual(5);
  });
});
