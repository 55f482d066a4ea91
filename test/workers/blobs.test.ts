import { env } from 'cloudflare:test';
import { createR2BlobStore } from '../../src/storage/blobs/r2';
import { blobStoreSuite } from '../helpers/blob-suite';

blobStoreSuite('R2 (local, in workerd)', async () => createR2BlobStore(env.ARTIFACTS));
