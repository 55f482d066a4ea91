/**
 * The local admin channel (docs/design.md, "Operating a running server"). The embedded database
 * belongs to the one process that holds its data directory, so while the server runs the CLI
 * cannot open it. Instead, at start the server writes `admin.json` into its data directory —
 * readable by its owner only (mode 0600) — holding a random token, the URL by which this machine
 * reaches it, and its pid; /admin takes that token from this machine only (src/http/admin.ts).
 * The CLI, finding the file of a live server, sends its command there. A clean stop removes the
 * file; one left by a process that died is ignored and replaced at the next start.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomToken } from '../domain/crypto';
import type { LocalAdmin } from '../operator/operator';

export const localAdminPath = (dataDir: string) => join(dataDir, 'admin.json');

/** A new channel's token (256 random bits). */
export const newLocalAdminToken = () => randomToken(32);

/** Writes the file (replacing a stale one); returns its removal, which spares a file another process wrote since. */
export function writeLocalAdmin(dataDir: string, admin: LocalAdmin): () => void {
  const path = localAdminPath(dataDir);
  rmSync(path, { force: true });
  // created with its mode, never readable by others for an instant
  writeFileSync(path, `${JSON.stringify(admin)}\n`, { mode: 0o600, flag: 'wx' });
  return () => {
    if (readLocalAdmin(path)?.token === admin.token) rmSync(path, { force: true });
  };
}

/** The channel of the server running on `dataDir`, if a live process wrote one. */
export function findLocalAdmin(dataDir: string): LocalAdmin | undefined {
  const admin = readLocalAdmin(localAdminPath(dataDir));
  return admin && alive(admin.pid) ? admin : undefined;
}

function readLocalAdmin(path: string): LocalAdmin | undefined {
  try {
    const v = JSON.parse(readFileSync(path, 'utf8')) as Partial<LocalAdmin>;
    if (typeof v.url === 'string' && typeof v.token === 'string' && Number.isInteger(v.pid)) return v as LocalAdmin;
  } catch {}
  return undefined;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The URL by which this machine reaches a server bound to `host`: a wildcard address is reached at loopback. */
export function localUrl(host: string, port: number): string {
  const reach = host === '0.0.0.0' || host === '' ? '127.0.0.1' : host === '::' ? '::1' : host;
  return `http://${reach.includes(':') ? `[${reach}]` : reach}:${port}`;
}

/**
 * Whether a connection comes from this machine: from a loopback address, or from the very address
 * it reached (a server bound to one of the machine's own addresses, called from the machine).
 */
export function fromThisMachine(remote: string | undefined, local: string | undefined): boolean {
  if (!remote) return false;
  const address = remote.startsWith('::ffff:') ? remote.slice(7) : remote;
  return address === '::1' || /^127\.\d+\.\d+\.\d+$/.test(address) || remote === local;
}
