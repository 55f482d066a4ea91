/**
 * `cairn serve`: one process on the embedded database; on Postgres, as many processes as
 * CAIRN_WORKERS (`--workers`) says, by default one per core (docs/design.md, "All cores").
 * - one process: it migrates, serves, prints the endpoint (and on the first start the first key);
 * - several: a primary migrates and makes the first key once, then forks the workers, which share
 *   the listening port (src/cluster.ts); each worker serves with its share of the database pool.
 * SIGTERM or SIGINT stops a serving process gracefully: no new connections, the requests in
 * flight finish, the pool closes, exit 0.
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { adminActions } from './admin';
import { runPrimary } from './cluster';
import { type Config, parseConfig } from './config';
import type { Store } from './domain/ports';
import { createEmbedder } from './embeddings/index';
import { openStoreFor, type RunningServer, serverUrl, startServer } from './node';

type Env = Record<string, string | undefined>;

/**
 * The processes `cairn serve` runs: CAIRN_WORKERS, else the machine's cores on Postgres; always
 * 1 on the embedded database, which lives in the one process that holds its data directory —
 * asking for more there is refused rather than quietly ignored.
 */
export function workerCount(config: Config, cores = availableParallelism()): number {
  if (config.databaseUrl) return config.workers ?? cores;
  if ((config.workers ?? 1) > 1) {
    throw new Error(
      `--workers ${config.workers} (CAIRN_WORKERS) needs a Postgres server (DATABASE_URL): the embedded database is one process, which holds ${config.dataDir}/db; leave it unset or set it to 1`,
    );
  }
  return 1;
}

/** Each worker's Postgres connections: the server's CAIRN_DB_POOL_SIZE shared out, rounded up. */
export function poolPerWorker(config: Config, workers: number): number {
  return Math.max(1, Math.ceil(config.dbPoolSize / workers));
}

/** Serves until SIGTERM/SIGINT; `env` is process.env with `--workers` folded in. */
export async function serve(env: Env): Promise<void> {
  const config = parseConfig(env);
  const workers = workerCount(config);
  createEmbedder(config.embeddings); // a configuration it refuses stops here, not in every worker
  if (cluster.isWorker) {
    await stopOnSignal(startServer(env, { poolSize: poolPerWorker(config, workers) }));
    return;
  }
  if (workers === 1) {
    const server = await stopOnSignal(startServer(env));
    announce(server.config, server.url, 1, server.store, await firstStart(server.store));
    return;
  }
  // the primary: migrates (opening the store does) and makes the first key, once, before any worker
  const store = await openStoreFor(config, 1);
  let created: FirstStart;
  try {
    created = await firstStart(store);
  } finally {
    await store.close();
  }
  runPrimary({
    workers,
    env: { CAIRN_WORKERS: String(workers) },
    onListening: (port) => announce(config, serverUrl(config, port), workers, store, created),
  });
}

type FirstStart = Awaited<ReturnType<ReturnType<typeof adminActions>['createOrg']>> | undefined;

/** On a database without orgs: the org `default` and its first key. */
async function firstStart(store: Store): Promise<FirstStart> {
  if ((await store.admin.listOrgs()).length > 0) return undefined;
  return adminActions(store, 'first-start').createOrg('default');
}

function announce(config: Config, url: string, workers: number, store: Store, created: FirstStart) {
  const processes = workers > 1 ? ` (${workers} worker processes)` : '';
  console.log(`Cairn ${config.version} is serving MCP at ${url}/mcp${processes}`);
  console.log(`Database: ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded, in ${config.dataDir}/db`}`);
  if (config.embeddings && store.vectorsUnavailable) {
    console.error(`[cairn] semantic recall is off: ${store.vectorsUnavailable}; recall is lexical`);
  }
  if (!created) return;
  console.log(`\nFirst start: created org "default" (${created.org.id}) and its first API key.`);
  console.log(
    `API key (shown once, keep it in a password manager or an environment variable):\n\n  ${created.key.secret}\n`,
  );
  console.log(
    'Client configuration: URL plus headers X-Svc-Key (the key), X-Svc-Agent (a name per agent), X-Svc-Project (optional).',
  );
  const stopFirst = config.databaseUrl ? '' : ' (with the server stopped: it holds the embedded database)';
  console.log(
    `Dashboard: ${url}/dashboard (keys, memory, ledger); an account for this org: npx cairn user create --org ${created.org.id} --email you@example.com${stopFirst}`,
  );
}

/**
 * SIGTERM or SIGINT (either, any number of times): a graceful stop, then exit 0. A signal that
 * comes while the server is starting stops it once it has started.
 */
function stopOnSignal(starting: Promise<RunningServer>): Promise<RunningServer> {
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    starting
      .then((server) => server.close())
      .then(
        () => process.exit(0),
        (err) => {
          console.error('[cairn] stopping failed', err);
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  return starting;
}
