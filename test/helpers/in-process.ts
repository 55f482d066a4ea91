/**
 * The app served in this process on an in-memory embedded database, with parts swapped for
 * doubles of what this machine cannot reach or break on demand (a client's website, a failing
 * blob store). Everything else is the product as it runs.
 */
import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { createApp, type Deps } from '../../src/app';
import { parseConfig } from '../../src/config';
import type { BlobStore, Store } from '../../src/domain/ports';
import { createFsBlobStore } from '../../src/storage/blobs/fs';
import { openStore } from '../../src/storage/pg/client';
import { ADMIN_TOKEN } from './server';

export interface InProcess {
  url: string;
  store: Store;
  blobs: BlobStore;
  close(): Promise<void>;
}

export async function startInProcess(swap: (blobs: BlobStore) => Partial<Deps> = () => ({})): Promise<InProcess> {
  const store = await openStore({ dataDir: 'memory://' });
  const config = parseConfig({
    HOST: '127.0.0.1',
    CAIRN_DATA_DIR: `/tmp/cairn-in-process-${process.pid}-${Date.now()}`,
    CAIRN_ADMIN_TOKEN: ADMIN_TOKEN,
  });
  const fsBlobs = createFsBlobStore(`${config.dataDir}/blobs`);
  const deps: Deps = { config, store, blobs: fsBlobs, ...swap(fsBlobs) };
  const server = serve({ fetch: createApp(deps).fetch, port: 0, hostname: '127.0.0.1' });
  await new Promise((r) => server.once('listening', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    store,
    blobs: deps.blobs,
    async close() {
      await new Promise((r) => server.close(r));
      await store.close();
    },
  };
}
