/**
 * Bounded waits on the database (docs/design.md, "Bounded waits on the database"): with the
 * database behind a TCP proxy that stalls (bytes held), drops every byte (a black hole) or resets
 * connections, a tool call answers 503 (-32050, Retry-After) within its statement bound, /healthz
 * 503 within 2 s, and once the database is back the service answers again within seconds, with no
 * connection left stuck in the pool. On the Node server over node-postgres, and on the Worker over
 * Neon's HTTP driver (the proxy in front of the SQL-over-HTTP endpoint).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startNeonHttpFixture } from '../fixtures/neon-http';
import { type FaultMode, startTcpFault, type TcpFault } from '../fixtures/tcp-fault';
import { rawPost, toolCall } from '../helpers/clients';
import { startTestServer, type TestServer } from '../helpers/server';

const STATEMENT_MS = 2000;
const BOUNDS = {
  CAIRN_DB_CONNECT_TIMEOUT_MS: '1000',
  CAIRN_DB_STATEMENT_TIMEOUT_MS: String(STATEMENT_MS),
  CAIRN_DB_POOL_SIZE: '3',
};
/** What a call may take beyond its bound: the HTTP round trip and the server's own work. */
const SLACK_MS = 1000;
const FAULTS: Exclude<FaultMode, 'pass' | 'refuse' | 'cut-before-answer'>[] = ['stall', 'blackhole', 'reset'];
const figures: string[] = [];

async function timed<T>(f: () => Promise<T>): Promise<[T, number]> {
  const t0 = performance.now();
  const r = await f();
  return [r, Math.round(performance.now() - t0)];
}

for (const target of ['postgres', 'workers'] as const) {
  describe(`bounded waits on the database (${target})`, () => {
    let t: TestServer;
    let fault: TcpFault;
    let neon: Awaited<ReturnType<typeof startNeonHttpFixture>> | undefined;
    let key: string;
    const remember = (content: string) => rawPost(t.mcpUrl, toolCall('remember', { content }), { 'X-Svc-Key': key });

    beforeAll(async () => {
      if (target === 'postgres') {
        fault = await startTcpFault({ host: '127.0.0.1', port: 5432 });
        t = await startTestServer('postgres', (pg) => {
          const u = new URL(pg?.url as string);
          u.port = String(fault.port);
          return { DATABASE_URL: u.toString(), ...BOUNDS };
        });
      } else {
        neon = await startNeonHttpFixture();
        fault = await startTcpFault({ host: '127.0.0.1', port: Number(new URL(neon.endpoint).port) });
        t = await startTestServer('workers', {
          CAIRN_NEON_HTTP_ENDPOINT: `http://127.0.0.1:${fault.port}/sql`,
          ...BOUNDS,
        });
      }
      ({ key } = await t.createOrg('bounded'));
    }, 90_000);
    afterAll(async () => {
      if (fault) fault.mode = 'pass';
      await t?.close();
      await fault?.close();
      await neon?.close();
      if (target === 'workers')
        console.log(`bounded waits (statement bound ${STATEMENT_MS} ms):\n${figures.join('\n')}`);
    });

    for (const mode of FAULTS) {
      it(`answers 503 within the bound while the database ${mode}s, and resumes when it is back`, async () => {
        expect((await remember(`before the ${mode}`)).status).toBe(200);
        fault.mode = mode;
        if (mode === 'reset') fault.resetAll();
        // more calls at once than the pool holds: some wait for a connection, within the same bound
        const [calls, callMs] = await timed(() =>
          Promise.all(Array.from({ length: 5 }, (_, i) => timed(() => remember(`during the ${mode} ${i}`)))),
        );
        const [health, healthMs] = await timed(() => fetch(`${t.url}/healthz`));
        for (const [res] of calls) {
          expect(res.status).toBe(503);
          expect(res.headers.get('retry-after')).toBe('2');
          expect(await res.json()).toMatchObject({
            error: { code: -32050, message: expect.stringMatching(/temporarily unavailable; retry shortly/) },
          });
        }
        expect(callMs).toBeLessThan(STATEMENT_MS + SLACK_MS);
        expect(health.status).toBe(503);
        expect(healthMs).toBeLessThan(2000);

        fault.mode = 'pass';
        const back = performance.now();
        const [resumed, resumeMs] = await timed(async () => {
          for (let i = 0; performance.now() - back < 5000; i++) {
            const res = await remember(`after the ${mode} ${i}`);
            if (res.status === 200) return res;
            await new Promise((r) => setTimeout(r, 100));
          }
          throw new Error('no answer within 5 s after the database came back');
        });
        expect(resumed.status).toBe(200);
        // no connection is left stuck: as many calls at once as the pool holds, and more, all answer
        const after = await Promise.all(Array.from({ length: 5 }, (_, i) => remember(`all back ${mode} ${i}`)));
        expect(after.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
        expect((await fetch(`${t.url}/healthz`)).status).toBe(200);
        const each = calls.map(([, ms]) => ms).sort((a, b) => a - b);
        figures.push(
          `${target} ${mode}: calls 503 in ${each[0]}–${each.at(-1)} ms, /healthz 503 in ${healthMs} ms, resumed in ${resumeMs} ms`,
        );
      }, 30_000);
    }
  });
}
