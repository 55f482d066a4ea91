/**
 * The Node server closes connections that hold a socket without finishing a request, over real
 * TCP against a started server with its own timeouts (src/node/node.ts, SERVER_TIMEOUTS): one that
 * sends nothing, one that stops in the middle of its headers, one kept alive after its answer.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SERVER_TIMEOUTS } from '../../src/node/node';
import { startTestServer, type TestServer } from '../helpers/server';

interface Closed {
  /** Milliseconds from the connection to the server closing it; null when it was still open. */
  after: number | null;
  /** What the server wrote on the socket, read as it came (a peer that does not read never sees the close). */
  got: string;
}

describe('idle and slow connections on the Node server', () => {
  let t: TestServer;

  beforeAll(async () => {
    t = await startTestServer('pglite');
  });
  afterAll(() => t?.close());

  /** Opens a socket, writes `send` (if any), and waits up to `waitMs` for the server to close it. */
  function socketClosed(send: string | undefined, waitMs: number): Promise<Closed> {
    return new Promise((resolve) => {
      const started = Date.now();
      let got = '';
      const socket = connect(t.port, '127.0.0.1', () => {
        if (send !== undefined) socket.write(send);
      });
      const giveUp = setTimeout(() => {
        socket.destroy();
        resolve({ after: null, got });
      }, waitMs);
      socket.on('data', (d) => {
        got += d.toString();
      });
      socket.on('error', () => {});
      socket.on('close', () => {
        clearTimeout(giveUp);
        resolve({ after: Date.now() - started, got });
      });
    });
  }

  it('closes a socket that sends nothing, or stops within its headers, well within 60 s; a kept-alive one after 5 s idle', async () => {
    const host = `Host: 127.0.0.1:${t.port}\r\n`;
    const limit = SERVER_TIMEOUTS.headersTimeout + SERVER_TIMEOUTS.connectionsCheckingInterval + 2_000;
    expect(limit).toBeLessThanOrEqual(60_000);
    const [silent, halfHeaders, keptAlive] = await Promise.all([
      socketClosed(undefined, 60_000),
      socketClosed(`GET /healthz HTTP/1.1\r\n${host}X-Slow: `, 60_000),
      socketClosed(`GET /healthz HTTP/1.1\r\n${host}\r\n`, 60_000),
    ]);
    // each closed by the server, not by the test's 60 s
    expect(silent.after).not.toBeNull();
    expect(silent.after).toBeLessThanOrEqual(limit);
    expect(halfHeaders.after).not.toBeNull();
    expect(halfHeaders.after).toBeLessThanOrEqual(limit);
    expect(halfHeaders.got).toMatch(/^HTTP\/1\.1 408 /);
    // the kept-alive connection got its answer, then was closed for idling
    expect(keptAlive.got).toMatch(/^HTTP\/1\.1 200 [\s\S]*"ok":true/);
    expect(keptAlive.after).not.toBeNull();
    expect(keptAlive.after).toBeGreaterThanOrEqual(SERVER_TIMEOUTS.keepAliveTimeout - 100);
    expect(keptAlive.after).toBeLessThanOrEqual(limit);
    // and the server still answers
    expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
  }, 90_000);
});
