import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { blobStoreSuite } from '../helpers/blob-suite';

blobStoreSuite('filesystem', async () => createFsBlobStore(await mkdtemp(join(tmpdir(), 'cairn-blobs-'))));

it('filesystem store leaves no temporary files behind, writing a new key or replacing one', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-blobs-'));
  const store = createFsBlobStore(root);
  const org = '01900000-0000-7000-8000-000000000001';
  const key = `${org}/01900000-0000-7000-8000-000000000002`;
  await store.put(key, Uint8Array.of(1, 2), 'x/y');
  expect(await readdir(join(root, org))).toEqual(['01900000-0000-7000-8000-000000000002']);
  // a key that holds bytes is replaced whole (an import run again), small or large
  await store.put(key, Uint8Array.of(3), 'x/y');
  expect(await store.get(key)).toEqual(Uint8Array.of(3));
  const large = new Uint8Array(100_000).fill(7);
  await store.put(key, large, 'x/y');
  expect(await store.get(key)).toEqual(large);
  expect(await readdir(join(root, org))).toEqual(['01900000-0000-7000-8000-000000000002']);
});
