/**
 * The floor: a bare `node:http` server that reads the request body, parses it as JSON, runs one
 * query through the same driver as Cairn (node-postgres with a pool of 10 on DATABASE_URL, else
 * PGlite in FLOOR_DATA_DIR) and answers a JSON-RPC result shaped like a tool call's. What any
 * server over that database and driver pays per request; the bench measures it with the same
 * client loop as the tools. Run as a child process by ./procs.ts.
 *
 * The query is `SELECT 1`, or on Postgres, when the request's params carry `wait_us`, one that
 * keeps its backend busy that many microseconds (`cairn_bench_floor_wait`, made in the bench's
 * own copy of the database): a floor whose request takes as long as a tool's, so that both wait
 * on the database alike. On a virtual machine a process that waits longer pays more CPU for the
 * same work (waking a peer whose core went idle costs the waker; docs/design.md, "CPU per call"),
 * and `SELECT 1` waits for nothing.
 */
import { createServer } from 'node:http';
import pg from 'pg';

type Query = (waitUs: number) => Promise<{ rows: Record<string, unknown>[] }>;

const WAIT_FUNCTION = `CREATE OR REPLACE FUNCTION public.cairn_bench_floor_wait(us integer) RETURNS integer
  LANGUAGE plpgsql AS $$
  DECLARE done timestamptz := clock_timestamp() + make_interval(secs => us / 1e6);
  BEGIN
    WHILE clock_timestamp() < done LOOP END LOOP;
    RETURN 1;
  END $$`;

async function driver(): Promise<Query> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    // a role that may not create functions gets the plain floor only (bench:cpu then says why)
    const waits = await pool.query(WAIT_FUNCTION).then(
      () => true,
      (err) => process.stderr.write(`floor: no waiting query (${err.message})\n`) && false,
    );
    return async (waitUs) => {
      if (waitUs === 0) return pool.query('SELECT 1 AS r');
      if (!waits) throw new Error('this floor cannot wait: cairn_bench_floor_wait could not be made');
      return pool.query({ name: 'wait', text: 'SELECT cairn_bench_floor_wait($1) AS r', values: [waitUs] });
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const db = await PGlite.create(process.env.FLOOR_DATA_DIR ?? 'memory://');
  return () => db.query<Record<string, unknown>>('SELECT 1 AS r');
}

const query = await driver();
createServer(async (req, res) => {
  if (req.url === '/healthz') {
    res.end('ok');
    return;
  }
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
      id?: unknown;
      params?: { arguments?: { wait_us?: unknown } };
    };
    const wait = Number(body.params?.arguments?.wait_us ?? 0);
    const { rows } = await query(Number.isInteger(wait) && wait > 0 ? wait : 0);
    const text = String(rows[0]?.r);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, result: { content: [{ type: 'text', text }] } }));
  } catch (err) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(err) } }));
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
