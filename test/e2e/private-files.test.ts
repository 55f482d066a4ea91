/**
 * The Node install's data directory is private (issue 38.2): under any umask the embedded database
 * and artifact bytes are made 0600 in 0700 folders, and an install an earlier version left open to
 * other users is tightened at start, which the server says once.
 */
import { lstatSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect } from '../helpers/clients';
import { serve, stop } from '../helpers/serve-cli';

/** Every path under `dir` with its permission bits, folders marked by a trailing slash. */
function modes(dir: string): Map<string, number> {
  const out = new Map<string, number>();
  const visit = (path: string) => {
    const st = lstatSync(path);
    out.set(st.isDirectory() ? `${path}/` : path, st.mode & 0o777);
    if (st.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
  };
  visit(dir);
  return out;
}

const open = (m: Map<string, number>) => [...m].filter(([p, mode]) => mode !== (p.endsWith('/') ? 0o700 : 0o600));

describe('the embedded install is private', () => {
  let dataDir: string;
  beforeAll(async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-private-'));
  });
  afterAll(() => rm(dataDir, { recursive: true, force: true }));
  const env = () => ({ CAIRN_DATA_DIR: dataDir, DATABASE_URL: '' });

  it('makes files 0600 and folders 0700 under umask 000, tightens an old install once', async () => {
    const first = await serve(env(), { key: true, link: true }, '000');
    const agent = await connect('v2', `${first.url}/mcp`, { key: first.key as string, agent: 'a' });
    await agent.call('artifact_put', { name: 'notes.txt', content: 'private bytes' });
    await agent.call('note', { content: 'a private note' });
    await agent.close();
    const running = new Map([
      ...modes(join(dataDir, 'db')),
      ...modes(join(dataDir, 'blobs')),
      ...modes(join(dataDir, 'admin.json')),
    ]);
    expect(running.size).toBeGreaterThan(100); // the database's files, the blob, the channel
    expect(open(running)).toEqual([]);
    await stop(first);
    expect(first.output).not.toMatch(/readable by other users/);

    // as an earlier version left it under umask 022 (or 000): every file and folder open
    for (const [path] of modes(dataDir)) await chmod(path, path.endsWith('/') ? 0o777 : 0o666);
    const again = await serve(env(), { key: false, link: true }, '022');
    await stop(again);
    const said = again.output.match(/made (\d+) of its files and folders private/g) ?? [];
    expect(said).toHaveLength(1);
    expect(Number(/\d+/.exec(said[0] as string)?.[0])).toBeGreaterThan(100);
    expect(open(new Map([...modes(join(dataDir, 'db')), ...modes(join(dataDir, 'blobs'))]))).toEqual([]);

    const third = await serve(env(), { key: false, link: true }, '022');
    await stop(third);
    expect(third.output).not.toMatch(/readable by other users/);
  }, 180_000);
});
