/** The crypto helpers give what the standards say. */
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/domain/crypto';

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
