/**
 * Artifact bytes on the local filesystem. Keys are chosen by the service (`<org id>/<artifact
 * id>`) and checked against a strict pattern, so nothing a caller sends ever becomes a path.
 * A reader never sees half a blob. A key that holds nothing yet (every artifact_put makes a new
 * id, and no row names it until the bytes are stored) is written in place, created exclusively;
 * if that write fails, the file goes with it. A key that already holds bytes (an import run
 * again) is written to a temporary file first and renamed over them.
 *
 * A small blob (up to SMALL bytes, what most artifacts are) is written and read with synchronous
 * calls: each asynchronous one is a trip to libuv's thread pool and back (mkdir, open, write,
 * close and rename made five for one put), which cost more CPU than the copy into the page cache
 * itself. Larger blobs go through the thread pool, so the event loop never waits on a long copy.
 */
import {
  closeSync,
  fstatSync,
  mkdirSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobStore } from '../../domain/ports';

const KEY_RE = /^[0-9a-f-]{36}(\/[0-9a-f-]{36})*$/;
const SMALL = 64 * 1024;
/** Most directories a store remembers having made (one per org). */
const DIRS_REMEMBERED = 10_000;

/** The bytes of a file of at most SMALL bytes, read at once; null for a larger one (read it asynchronously). */
function readSmall(path: string): Uint8Array | null {
  const fd = openSync(path, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size > SMALL) return null;
    const bytes = new Uint8Array(size);
    let at = 0;
    while (at < size) {
      const n = readSync(fd, bytes, at, size - at, at);
      if (n === 0) break;
      at += n;
    }
    return at === size ? bytes : bytes.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

/** Creates `path` with `bytes`, failing with EEXIST if it exists; a file it could not finish is removed. */
function writeNew(path: string, bytes: Uint8Array): void {
  const fd = openSync(path, 'wx');
  try {
    let at = 0;
    while (at < bytes.length) at += writeSync(fd, bytes, at, bytes.length - at);
  } catch (err) {
    closeSync(fd);
    rmSync(path, { force: true });
    throw err;
  }
  closeSync(fd);
}

export function createFsBlobStore(root: string): BlobStore {
  const pathOf = (key: string) => {
    if (!KEY_RE.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
    return join(root, ...key.split('/'));
  };
  const made = new Set<string>();
  return {
    async put(key, bytes) {
      const path = pathOf(key);
      const dir = dirname(path);
      const tmp = `${path}.${process.pid}.${Date.now()}.tmp`;
      if (bytes.length <= SMALL) {
        if (!made.has(dir)) mkdirSync(dir, { recursive: true });
        try {
          writeNew(path, bytes);
        } catch (err) {
          const code = (err as NodeJS.ErrnoException).code;
          if (code === 'EEXIST') {
            writeFileSync(tmp, bytes);
            renameSync(tmp, path);
          } else if (code === 'ENOENT') {
            // the directory was removed since it was made here: make it again
            mkdirSync(dir, { recursive: true });
            writeNew(path, bytes);
          } else throw err;
        }
        if (made.size >= DIRS_REMEMBERED) made.clear();
        made.add(dir);
        return;
      }
      await mkdir(dir, { recursive: true });
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    },
    async get(key) {
      try {
        const path = pathOf(key);
        return readSmall(path) ?? new Uint8Array(await readFile(path));
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
