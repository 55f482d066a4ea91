/**
 * `cairn serve --workers N` as an operator runs it (docs/design.md, "All cores"): on Postgres a
 * primary and N worker processes sharing the port, a dead worker replaced, SIGTERM a graceful stop
 * that exits 0; on the embedded database more than one refused (test/cli.test.ts checks that its
 * server is the one process). Which process serves a connection is read from Linux's /proc
 * (test/helpers/processes.ts), so the product needs no debug endpoint.
 */
import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/config';
import { poolPerWorker, workerCount } from '../src/node/serve';
import { connect } from './helpers/clients';
import { createTestDatabase, type TestDatabase } from './helpers/postgres';
import { alive, cairnChildren, servingPid } from './helpers/processes';

const BIN = join(import.meta.dirname, '..', 'bin', 'cairn.js');
const run = promisify(execFile);

interface Serving {
  child: ChildProcess;
  url: string;
  port: number;
  key: string;
  output(): string;
}

/** Starts `cairn serve` and waits for its endpoint and first key. */
async function startServe(env: Record<string, string>, args: string[] = []): Promise<Serving> {
  const child = spawn(process.execPath, [BIN, 'serve', ...args], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', CAIRN_WORKERS: '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const found = await new Promise<{ url: string; key: string }>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL'); // its workers follow: they exit when the primary's channel closes
      reject(new Error(`serve printed in 20 s:\n${out}`));
    }, 20_000);
    const look = () => {
      const url = /serving MCP at (\S+)\/mcp/.exec(out)?.[1];
      const key = /\b(svc_[0-9A-Za-z]{40})\b/.exec(out)?.[1];
      if (url && key) {
        clearTimeout(timer);
        resolve({ url, key });
      }
    };
    child.stdout?.on('data', look);
    child.on('exit', (code) => reject(new Error(`serve exited ${code}:\n${out}`)));
  });
  return { child, ...found, port: Number(new URL(found.url).port), output: () => out };
}

function exited(child: ChildProcess): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

const spaceCall = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'space', arguments: {} },
});

/**
 * A tools/call on a connection of its own, sent in two parts: `between` runs when the server has
 * the headers and half the body (a request in flight). Returns the answer and the client's port.
 */
function callOnOwnConnection(
  s: Serving,
  between: (clientPort: number) => Promise<void> = async () => {},
): Promise<{ status: number; body: string; clientPort: number }> {
  return new Promise((resolve, reject) => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    const req = request(`${s.url}/mcp`, {
      method: 'POST',
      agent,
      headers: {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(spaceCall),
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'x-svc-key': s.key,
        'x-svc-agent': 'workers-test',
      },
    });
    req.on('error', reject);
    req.on('socket', (socket) =>
      socket.once('connect', async () => {
        const clientPort = socket.localPort as number;
        req.write(spaceCall.slice(0, 10));
        await new Promise((r) => setTimeout(r, 50)); // the worker has the headers
        await between(clientPort).catch(reject);
        req.end(spaceCall.slice(10));
        req.on('response', (res) => {
          let body = '';
          res.on('data', (d) => (body += String(d)));
          res.on('end', () => {
            agent.destroy();
            resolve({ status: res.statusCode ?? 0, body, clientPort });
          });
        });
      }),
    );
  });
}

describe.skipIf(process.platform !== 'linux')('cairn serve --workers on Postgres', () => {
  let db: TestDatabase;
  let dataDir: string;
  let s: Serving;

  beforeAll(async () => {
    db = await createTestDatabase();
    dataDir = await mkdtemp(join(tmpdir(), 'cairn-workers-'));
    s = await startServe({ DATABASE_URL: db.url, CAIRN_DATA_DIR: dataDir }, ['--workers', '2']);
  }, 30_000);

  afterAll(async () => {
    if (s && alive(s.child.pid as number)) {
      for (const pid of cairnChildren(s.child.pid as number)) process.kill(pid, 'SIGKILL');
      s.child.kill('SIGKILL');
    }
    await db?.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  it('serves MCP from two worker processes sharing the port', async () => {
    expect(s.output()).toContain('(2 worker processes)');
    expect(s.output().match(/First start: created org/g)).toHaveLength(1);
    const workers = cairnChildren(s.child.pid as number);
    expect(workers).toHaveLength(2);

    const client = await connect('v2', `${s.url}/mcp`, { key: s.key, agent: 'first' });
    expect((await client.call('space')).structured.org).toMatchObject({ name: 'default' });
    await client.close();

    // connections are handed to the workers in turn: a few of them reach both
    const servedBy = new Set<number | undefined>();
    for (let i = 0; i < 6 && servedBy.size < 2; i++) {
      const r = await callOnOwnConnection(s, async (clientPort) => {
        servedBy.add(servingPid(s.port, clientPort, workers));
      });
      expect(r.status).toBe(200);
      expect(JSON.parse(r.body).result.isError).toBeFalsy();
    }
    expect([...servedBy].sort()).toEqual(workers);
  });

  it('replaces a worker that dies; the new one serves', async () => {
    const [victim, other] = cairnChildren(s.child.pid as number) as [number, number];
    process.kill(victim, 'SIGKILL');
    const deadline = Date.now() + 20_000;
    let now = cairnChildren(s.child.pid as number);
    while (Date.now() < deadline && (now.length < 2 || now.includes(victim))) {
      await new Promise((r) => setTimeout(r, 100));
      now = cairnChildren(s.child.pid as number);
    }
    expect(now).toContain(other);
    expect(now).toHaveLength(2);
    const replacement = now.find((pid) => pid !== other) as number;
    expect(s.output()).toMatch(new RegExp(`worker ${victim} exited \\(SIGKILL\\); a new one starts in \\d+ ms`));
    // the replacement takes connections once it listens; until then the other worker has them all
    let servedBy: number | undefined;
    while (Date.now() < deadline && servedBy !== replacement) {
      const r = await callOnOwnConnection(s, async (clientPort) => {
        servedBy = servingPid(s.port, clientPort, now);
      });
      expect(r.status).toBe(200);
    }
    expect(servedBy).toBe(replacement);
    const client = await connect('v2', `${s.url}/mcp`, { key: s.key, agent: 'after' });
    expect((await client.call('remember', { content: 'a worker was replaced' })).isError).toBe(false);
    await client.close();
  });

  it('stops on SIGTERM: a request in flight is answered, the workers exit, then the primary with 0', async () => {
    const workers = cairnChildren(s.child.pid as number);
    const answered = await callOnOwnConnection(s, async (clientPort) => {
      expect(workers).toContain(servingPid(s.port, clientPort, workers));
      s.child.kill('SIGTERM');
      await new Promise((r) => setTimeout(r, 300));
    });
    expect(answered.status).toBe(200);
    expect(JSON.parse(answered.body).result.isError).toBeFalsy();
    expect(await exited(s.child)).toEqual({ code: 0, signal: null });
    expect(s.output()).not.toContain('stopped uncleanly');
    expect(workers.filter(alive)).toEqual([]);
  });
});

describe('how many processes serve', () => {
  const env = { CAIRN_DATA_DIR: '/nonexistent' };
  it('one per core on Postgres unless told, one on the embedded database', () => {
    const pg = { ...env, DATABASE_URL: 'postgres://h/db' };
    expect(workerCount(parseConfig(pg), 8)).toBe(8);
    expect(workerCount(parseConfig({ ...pg, CAIRN_WORKERS: '3' }), 8)).toBe(3);
    expect(workerCount(parseConfig(env), 8)).toBe(1);
    expect(workerCount(parseConfig({ ...env, CAIRN_WORKERS: '1' }), 8)).toBe(1);
    expect(() => workerCount(parseConfig({ ...env, CAIRN_WORKERS: '2' }), 8)).toThrow(
      /needs a Postgres server \(DATABASE_URL\): the embedded database is one process/,
    );
    expect(() => parseConfig({ ...pg, CAIRN_WORKERS: '0' })).toThrow(/CAIRN_WORKERS/);
  });

  it('shares the pool among the workers: each gets its part, rounded up', () => {
    const config = parseConfig({ ...env, DATABASE_URL: 'postgres://h/db' });
    expect([1, 2, 3, 4, 10, 16].map((n) => poolPerWorker(config, n))).toEqual([10, 5, 4, 3, 1, 1]);
    expect(poolPerWorker(parseConfig({ ...env, CAIRN_DB_POOL_SIZE: '40' }), 8)).toBe(5);
  });
});

describe('cairn serve --workers on the embedded database', () => {
  it('is refused above 1, saying why', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'cairn-workers-embedded-'));
    try {
      const env = { ...process.env, DATABASE_URL: '', CAIRN_DATA_DIR: dataDir, PORT: '0', CAIRN_WORKERS: '' };
      // refused before the database is opened (CAIRN_WORKERS alone: 'how many processes serve' above)
      await Promise.all([
        expect(run(process.execPath, [BIN, 'serve', '--workers', '2'], { env })).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/--workers 2 \(CAIRN_WORKERS\) needs a Postgres server \(DATABASE_URL\)/),
        }),
        expect(run(process.execPath, [BIN, 'serve', '--workers', 'all'], { env })).rejects.toMatchObject({
          code: 1,
          stderr: expect.stringMatching(/--workers: a whole number, at least 1/),
        }),
      ]);
      expect(readdirSync(dataDir)).toEqual([]);
    } finally {
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
