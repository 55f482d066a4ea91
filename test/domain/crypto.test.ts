/** The crypto helpers give what the standards say. */
import { describe, expect, it } from 'vitest';
import { base64ToBytes, sha256Hex } from '../../src/domain/crypto';

describe('sha256Hex', () => {
  it("gives SHA-256's known digests of text and of bytes, as lower-case hex", async () => {
    const abc = 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad';
    expect(await sha256Hex('abc')).toBe(abc);
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe(abc);
    expect(await sha256Hex('')).toBe('e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    // text as UTF-8
    expect(await sha256Hex('é')).toBe(await sha256Hex(new Uint8Array([0xc3, 0xa9])));
  });
});

describe('base64ToBytes', () => {
  const text = (b: Uint8Array | null) => (b ? new TextDecoder().decode(b) : b);

  it("decodes RFC 4648's test vectors, and whitespace between characters", () => {
    const vectors: [string, string][] = [
      ['', ''],
      ['Zg==', 'f'],
      ['Zm8=', 'fo'],
      ['Zm9v', 'foo'],
      ['Zm9vYg==', 'foob'],
      ['Zm9vYmE=', 'fooba'],
      ['Zm9vYmFy', 'foobar'],
    ];
    for (const [b64, plain] of vectors) expect(text(base64ToBytes(b64))).toBe(plain);
    expect(text(base64ToBytes('Zm9v\r\nYmFy\n'))).toBe('foobar');
    expect(text(base64ToBytes(' Zm9vYg =\t= '))).toBe('foob');
  });

  it('refuses what is not standard base64', () => {
    for (const bad of [
      'Zg',
      'Zg=',
      'Zg===',
      'Z===',
      '=',
      'Zm9v=',
      'Zg==Zg==',
      'Zm9-',
      'Zm9_',
      'Zm9vé===',
      '***',
      'Zm9v\u00a0',
    ]) {
      expect(base64ToBytes(bad), bad).toBeNull();
    }
  });

  it('decodes what Node encodes, every byte value and every length mod 3', () => {
    for (const n of [1, 2, 3, 4, 5, 255, 256, 1000, 1001, 1002]) {
      const bytes = Uint8Array.from({ length: n }, (_, i) => (i * 131 + n) & 0xff);
      expect(base64ToBytes(Buffer.from(bytes).toString('base64'))).toEqual(bytes);
    }
  });

  it('decodes 5 MiB of bytes (about 7 million characters) in linear time, without recursion', () => {
    const bytes = Uint8Array.from({ length: 5 * 1024 * 1024 }, (_, i) => (i * 7919) & 0xff);
    const b64 = Buffer.from(bytes).toString('base64');
    expect(b64.length).toBe(6_990_508);
    const started = performance.now();
    const decoded = base64ToBytes(b64);
    const invalid = base64ToBytes(`${b64}A`);
    const ms = performance.now() - started;
    expect(Buffer.from(decoded as Uint8Array).equals(bytes)).toBe(true);
    expect(invalid).toBeNull();
    expect(ms).toBeLessThan(2_000);
  });
});
