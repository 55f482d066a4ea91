/**
 * A bounded load run on loopback: agents of two orgs write and recall concurrently for a while,
 * then every acknowledged write is looked for. Used by test/load/load.test.ts (short, in the test
 * suite) and scripts/load.ts (long, figures for BENCHMARKS.md).
 */
import { performance } from 'node:perf_hooks';

export interface LoadOptions {
  mcpUrl: string;
  adminUrl: string;
  adminToken: string;
  orgs: { id: string; key: string }[];
  agents: number;
  seconds: number;
  /** Runs between the load and the checks (e.g. lifting a rate limit the load was meant to meet). */
  beforeChecks?: () => Promise<void>;
}

export interface LoadResult {
  seconds: number;
  agents: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  writes: number;
  recalls: number;
  artifacts: number;
  /** 429s from a configured limit: expected, not errors. */
  limited: number;
  /** Anything else that failed: must be none. */
  errors: { status: number; body: string }[];
  /** Acknowledged writes that recall did not find afterwards: must be none. */
  missing: string[];
  ledgers: { org: string; ok: boolean; events: number; expected: number; broken_at: number | null }[];
  /** Latency minute by minute of the load (the last one may be partial): does it hold as the data grows? */
  minutes: { minute: number; requests: number; p50: number; p95: number; recall_p95: number }[];
}

interface Ack {
  org: number;
  token: string;
  id: string;
}

function percentile(sorted: number[], p: number): number {
  return sorted.length ? (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] as number) : 0;
}

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const acks: Ack[] = [];
  const latencies: number[] = [];
  const start = performance.now();
  /** Each call of the load: when it started (ms from the start), what it took, which tool. */
  const samples: { at: number; ms: number; tool: string }[] = [];
  let loading = true;
  const errors: LoadResult['errors'] = [];
  const counts = { writes: 0, recalls: 0, artifacts: 0, limited: 0 };
  const writesPerOrg = o.orgs.map(() => 0);
  let id = 0;
  const call = async (org: number, agent: string, name: string, args: Record<string, unknown>) => {
    const t0 = performance.now();
    const res = await fetch(o.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
        'x-svc-key': (o.orgs[org] as { key: string }).key,
        'x-svc-agent': agent,
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } }),
    });
    const text = await res.text();
    latencies.push(performance.now() - t0);
    if (loading) samples.push({ at: t0 - start, ms: performance.now() - t0, tool: name });
    if (res.status === 429) {
      counts.limited++;
      return null;
    }
    const body =
      res.status === 200
        ? (JSON.parse(text) as { result?: { isError?: boolean; structuredContent?: Record<string, unknown> } })
        : null;
    if (!body?.result || body.result.isError) {
      errors.push({ status: res.status, body: text.slice(0, 300) });
      return null;
    }
    return body.result.structuredContent ?? {};
  };

  const end = performance.now() + o.seconds * 1000;
  await Promise.all(
    Array.from({ length: o.agents }, async (_, a) => {
      const org = a % o.orgs.length;
      const agent = `load-agent-${a}`;
      const mine: string[] = [];
      for (let seq = 0; performance.now() < end; seq++) {
        const roll = (a * 7919 + seq * 104729) % 10;
        if (roll < 6 || mine.length === 0) {
          const token = `ldtok${a}q${seq}`;
          const r = await call(org, agent, 'remember', {
            content: `load test memory ${token} from ${agent}`,
            scope: 'org',
          });
          const entry = r?.entry as { id: string } | undefined;
          if (entry) {
            acks.push({ org, token, id: entry.id });
            mine.push(token);
            counts.writes++;
            writesPerOrg[org] = (writesPerOrg[org] as number) + 1;
          }
        } else if (roll < 9) {
          const token = mine[(seq * 31) % mine.length] as string;
          if (await call(org, agent, 'recall', { query: token, limit: 5 })) counts.recalls++;
        } else {
          const r = await call(org, agent, 'artifact_put', { name: `load-${a}-${seq}.txt`, content: `bytes ${seq}` });
          if (r?.artifact) {
            counts.artifacts++;
            writesPerOrg[org] = (writesPerOrg[org] as number) + 1;
          }
        }
      }
    }),
  );
  loading = false;
  const sorted = [...latencies].sort((x, y) => x - y);
  await o.beforeChecks?.();

  // every acknowledged write, recalled by its token (16 at a time)
  const missing: string[] = [];
  for (let i = 0; i < acks.length; i += 16) {
    await Promise.all(
      acks.slice(i, i + 16).map(async (ack) => {
        for (let attempt = 0; attempt < 3; attempt++) {
          const r = await call(ack.org, 'load-checker', 'recall', { query: ack.token, limit: 3 });
          if (r) {
            const hits = r.hits as { id: string }[];
            if (!hits.some((h) => h.id === ack.id)) missing.push(ack.token);
            return;
          }
          await new Promise((res) => setTimeout(res, 1000)); // a configured 429: wait and look again
        }
        missing.push(ack.token);
      }),
    );
  }

  const ledgers = [];
  for (const [i, org] of o.orgs.entries()) {
    const res = await fetch(`${o.adminUrl}/orgs/${org.id}/ledger/verify`, {
      headers: { authorization: `Bearer ${o.adminToken}` },
    });
    const v = (await res.json()) as { ok: boolean; events: number; broken_at: number | null };
    // the ledger holds the org's first key and every acknowledged write, nothing else
    ledgers.push({ org: org.id, ...v, expected: 1 + (writesPerOrg[i] as number) });
  }
  const r = (x: number) => Math.round(x * 100) / 100;
  return {
    seconds: o.seconds,
    agents: o.agents,
    requests: sorted.length,
    rps: r(sorted.length / o.seconds),
    p50: r(percentile(sorted, 50)),
    p95: r(percentile(sorted, 95)),
    p99: r(percentile(sorted, 99)),
    ...counts,
    errors,
    missing,
    ledgers,
    minutes: [...Map.groupBy(samples, (s) => Math.floor(s.at / 60_000))].map(([minute, ss]) => {
      const ms = ss.map((s) => s.ms).sort((x, y) => x - y);
      const recalls = ss
        .filter((s) => s.tool === 'recall')
        .map((s) => s.ms)
        .sort((x, y) => x - y);
      return {
        minute: minute + 1,
        requests: ss.length,
        p50: r(percentile(ms, 50)),
        p95: r(percentile(ms, 95)),
        recall_p95: r(percentile(recalls, 95)),
      };
    }),
  };
}
