/**
 * The floor: a bare `node:http` server that reads the request body, parses it as JSON, runs one
 * query (`SELECT 1`) through the same driver as Cairn (node-postgres with a pool of 10 on
 * DATABASE_URL, else PGlite in FLOOR_DATA_DIR) and answers a JSON-RPC result shaped like a tool
 * call's. What any server over that database and driver pays per request; the bench measures it
 * with the same client loop as the tools. Run as a child process by ./procs.ts.
 */
import { createServer } from 'node:http';
import pg from 'pg';

type Query = () => Promise<{ rows: Record<string, unknown>[] }>;

async function driver(): Promise<Query> {
  const url = process.env.DATABASE_URL;
  if (url) {
    const pool = new pg.Pool({ connectionString: url, max: 10 });
    return () => pool.query('SELECT 1 AS r');
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
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: unknown };
    const { rows } = await query();
    const text = String(rows[0]?.r);
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: body.id ?? null, result: { content: [{ type: 'text', text }] } }));
  } catch (err) {
    res.writeHead(500, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32603, message: String(err) } }));
  }
}).listen(Number(process.env.PORT), '127.0.0.1');
