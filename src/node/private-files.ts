/**
 * The Node install's data directory (the embedded database, artifact bytes, the local admin
 * channel) is its user's alone: every org's memory, private notes and key hashes are in it. Files
 * this process creates get mode 0600 and folders 0700 whatever the umask it was started with, and
 * what an earlier version left open to other users is tightened (docs/design.md, "Who can do what").
 */
import { chmodSync, lstatSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const OTHERS = 0o077;

/** What Cairn keeps in its data directory; the directory itself may be one the operator shares. */
const OWN = ['db', 'blobs', 'admin.json'];

/**
 * Sets this process's umask to 077 and tightens what Cairn keeps in `dataDir` (db/, blobs/,
 * admin.json, each tree whole): folders to 0700, files to 0600 where group or others had any bit.
 * Symbolic links are left alone (not followed). Returns how many were tightened, so the caller says
 * so once: the next start finds none.
 */
export function keepPrivate(dataDir: string): number {
  process.umask(OTHERS);
  let tightened = 0;
  const visit = (path: string) => {
    let st: ReturnType<typeof lstatSync>;
    try {
      st = lstatSync(path);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // a new install: made private as it is made
      throw err;
    }
    if (st.isSymbolicLink()) return;
    if ((st.mode & OTHERS) !== 0) {
      chmodSync(path, st.isDirectory() ? 0o700 : 0o600);
      tightened++;
    }
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  for (const name of OWN) visit(join(dataDir, name));
  return tightened;
}
