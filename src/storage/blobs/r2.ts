/** Artifact bytes in Cloudflare R2, through the bucket binding. Keys are `<org id>/<artifact id>`. */
import type { BlobStore } from '../../domain/ports';

const KEY_RE = /^[0-9a-f-]{36}(\/[0-9a-f-]{36})*$/;
const DELETE_BATCH = 1000; // R2 deletes at most 1,000 keys per call

function checked(key: string): string {
  if (!KEY_RE.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
  return key;
}

export function createR2BlobStore(bucket: R2Bucket): BlobStore {
  return {
    async put(key, bytes, contentType) {
      await bucket.put(checked(key), bytes, { httpMetadata: { contentType } });
    },
    async get(key) {
      const object = await bucket.get(checked(key));
      return object ? new Uint8Array(await object.arrayBuffer()) : null;
    },
    async delete(keys) {
      const valid = keys.map(checked);
      for (let i = 0; i < valid.length; i += DELETE_BATCH) await bucket.delete(valid.slice(i, i + DELETE_BATCH));
    },
    async list(prefix) {
      const out: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await bucket.list({ prefix, ...(cursor ? { cursor } : {}) });
        out.push(...page.objects.map((o) => o.key));
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor);
      return out.sort();
    },
  };
}
