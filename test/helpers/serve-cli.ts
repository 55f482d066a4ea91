/**
 * `cairn serve` as an operator starts it, for tests of its first start: the process, its URL, and
 * the key and setup link it printed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'cairn.js');

export interface Serving {
  child: ChildProcess;
  url: string;
  key: string | undefined;
  link: string | undefined;
  output: string;
}

/**
 * Starts `cairn serve` and waits until it has printed its endpoint, and its key and link when `expect`ed.
 * `umask`: the mask the operator's shell starts it with (octal, e.g. '000'); default inherited.
 * `bin`: the command (default this repository's bin/cairn.js; an installed package's, test/pack.test.ts).
 */
export async function serve(
  env: Record<string, string>,
  want: { key: boolean; link: boolean },
  umask?: string,
  bin = BIN,
): Promise<Serving> {
  const [cmd, args] = umask
    ? ['sh', ['-c', `umask ${umask} && exec "$0" "$@"`, process.execPath, bin, 'serve']]
    : [process.execPath, [bin, 'serve']];
  const child = spawn(cmd as string, args as string[], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CAIRN_WORKERS: '', CAIRN_ADMIN_TOKEN: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr?.on('data', (d) => (out += String(d)));
  return new Promise<Serving>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`serve printed in 60 s:\n${out}`));
    }, 60_000);
    child.stdout?.on('data', (d) => {
      out += String(d);
      const url = /serving MCP at (\S+)\/mcp/.exec(out)?.[1];
      const key = /\b(svc_[0-9A-Za-z]{40})\b/.exec(out)?.[1];
      const link = /(http:\/\/\S+\/dashboard\/setup\?token=[\w-]{43})\n/.exec(out)?.[1];
      // the link is printed last: with none wanted, wait for the banner's end
      const done = want.link ? link : /Database: .*\n/.test(out);
      if (url && done && (!want.key || key)) {
        clearTimeout(timer);
        resolve({ child, url, key, link, output: out });
      }
    });
    child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
}

export async function stop(s: Serving): Promise<void> {
  const exited = new Promise((r) => s.child.once('exit', (code, signal) => r({ code, signal })));
  s.child.kill('SIGTERM');
  expect(await exited).toEqual({ code: 0, signal: null });
}
