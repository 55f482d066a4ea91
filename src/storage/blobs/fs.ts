/**
 * Artifact bytes on the local filesystem. Keys are chosen by the service (`<org id>/<artifact
 * id>`) and checked against a strict pattern, so nothing a caller sends ever becomes a path.
 * Writes go to a temporary file first and are renamed into place: a reader never sees half a blob.
 */
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobStore } from '../../domain/ports';

const KEY_RE = /^[0-9a-f-]{36}(\/[0-9a-f-]{36})*$/;

export function createFsBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    if (!KEY_RE.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return join(root, ...key.split('/'));
  };
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      await mkdir(dirname(path), { recursive: true });
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    },
    async get(key) {
      try {
        return new Uint8Array(await readFile(pathOf(key)));
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw err;
      }
    },
    async delete(keys) {
      await Promise.all(keys.map((k) => rm(pathOf(k), { force: true })));
    },
    async list(prefix) {
      const out: string[] = [];
      const walk = async (dir: string, rel: string) => {
        const items = await readdir(dir, { withFileTypes: true }).catch(() => []);
        for (const item of items) {
          const key = rel ? `${rel}/${item.name}` : item.name;
          if (item.isDirectory()) await walk(join(dir, item.name), key);
          else if (KEY_RE.test(key) && key.startsWith(prefix)) out.push(key);
        }
      };
      await walk(root, '');
      return out.sort();
    },
  };
}
