/**
 * What Linux's /proc says about the server's processes, for the `serve --workers` tests: a
 * process's `cairn` children, and which process holds the server's end of a TCP connection (so
 * that a test can tell which worker served a request without a debug endpoint in the product).
 */
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** The `cairn` processes `pid` started (its workers), in pid order. */
export function cairnChildren(pid: number): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes('cairn.js')) found.push(Number(name));
    } catch {} // gone meanwhile
  }
  return found.sort((a, b) => a - b);
}

export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Which of `pids` holds the server's end of the IPv4 connection from `clientPort` to `serverPort`. */
export function servingPid(serverPort: number, clientPort: number, pids: number[]): number | undefined {
  const hexPort = (p: number) => p.toString(16).toUpperCase().padStart(4, '0');
  const row = readFileSync('/proc/net/tcp', 'utf8')
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .find((f) => f[1]?.endsWith(`:${hexPort(serverPort)}`) && f[2]?.endsWith(`:${hexPort(clientPort)}`));
  if (!row?.[9]) return undefined;
  const socket = `socket:[${row[9]}]`;
  return pids.find((pid) => {
    try {
      return readdirSync(`/proc/${pid}/fd`).some((fd) => readlinkSync(`/proc/${pid}/fd/${fd}`) === socket);
    } catch {
      return false;
    }
  });
}
