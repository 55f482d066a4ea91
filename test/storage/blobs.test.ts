import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { blobStoreSuite } from '../helpers/blob-suite';

blobStoreSuite('filesystem', async () => createFsBlobStore(await mkdtemp(join(tmpdir(), 'cairn-blobs-'))));

it('filesystem store leaves no temporary files behind', async () => {
  const root = await mkdtemp(join(tmpdir(), 'cairn-blobs-'));
  const store = createFsBlobStore(root);
  const org = '01900000-0000-7000-8000-000000000001';
  await store.put(`${org}/01900000-0000-7000-8000-000000000002`, Uint8Array.of(1, 2), 'x/y');
  expect(await readdir(join(root, org))).toEqual(['01900000-0000-7000-8000-000000000002']);
});
