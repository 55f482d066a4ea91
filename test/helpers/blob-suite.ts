/** The contract every blob-store adapter must pass (fs here; R2 with the Workers adapter). */
import { describe, expect, it } from 'vitest';
import { uuidv7 } from '../../src/domain/ids';
import type { BlobStore } from '../../src/domain/ports';

export function blobStoreSuite(name: string, make: () => Promise<BlobStore>) {
  describe(`blob store: ${name}`, () => {
    const key = () => `${uuidv7()}/${uuidv7()}`;

    it('round-trips bytes exactly, including empty and binary', async () => {
      const store = await make();
      const bytes = Uint8Array.from({ length: 70_000 }, (_, i) => (i * 31) % 256);
      const k1 = key();
      const k2 = key();
      await store.put(k1, bytes, 'application/octet-stream');
      await store.put(k2, new Uint8Array(), 'text/plain');
      expect(await store.get(k1)).toEqual(bytes);
      expect(await store.get(k2)).toEqual(new Uint8Array());
    });

    it('answers null for a missing key and overwrites on put', async () => {
      const store = await make();
      const k = key();
      expect(await store.get(k)).toBeNull();
      await store.put(k, Uint8Array.of(1), 'x/y');
      await store.put(k, Uint8Array.of(2, 3), 'x/y');
      expect(await store.get(k)).toEqual(Uint8Array.of(2, 3));
    });

    it('deletes, tolerating keys that do not exist', async () => {
      const store = await make();
      const k = key();
      await store.put(k, Uint8Array.of(9), 'x/y');
      await store.delete([k, key()]);
      expect(await store.get(k)).toBeNull();
    });

    it('lists keys by prefix (an org)', async () => {
      const store = await make();
      const org = uuidv7();
      const ks = [`${org}/${uuidv7()}`, `${org}/${uuidv7()}`];
      for (const k of ks) await store.put(k, Uint8Array.of(1), 'x/y');
      await store.put(key(), Uint8Array.of(1), 'x/y');
      expect(await store.list(`${org}/`)).toEqual([...ks].sort());
    });

    it('refuses keys that could escape its namespace', async () => {
      const store = await make();
      for (const bad of ['../etc/passwd', '/abs', 'a/../../b', 'name with spaces', '']) {
        await expect(store.put(bad, Uint8Array.of(1), 'x/y')).rejects.toThrow(/invalid blob key/);
      }
    });
  });
}
