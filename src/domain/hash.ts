const encoder = new TextEncoder();

/** SHA-256 of UTF-8 text or bytes, as lower-case hex. WebCrypto: the same on Node and Workers. */
export async function sha256Hex(input: string | Uint8Array): Promise<string> {
  const bytes = typeof input === 'string' ? encoder.encode(input) : input;
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Byte length of a string in UTF-8. */
export function utf8Length(s: string): number {
  return encoder.encode(s).length;
}

/** Base64 of bytes, without Node's Buffer (the same on Workers). */
export function bytesToBase64(bytes: Uint8Array): string {
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
