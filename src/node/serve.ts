/**
 * `cairn serve`: one process on the embedded database; on Postgres, as many processes as
 * CAIRN_WORKERS (`--workers`) says, by default one per core (docs/design.md, "All cores").
 * - one process: it migrates, serves, prints the endpoint (and on the first start the first key);
 * - several: a primary migrates and makes the first key once, then forks the workers, which share
 *   the listening port (src/node/cluster.ts); each worker serves with its share of the database pool.
 * While the org `default` has no owner, each start also prints a one-time setup link
 * (src/auth/setup.ts) that makes whoever follows it that owner.
 * SIGTERM or SIGINT stops a serving process gracefully: no new connections, the requests in
 * flight finish, the pool closes, exit 0.
 */
import cluster from 'node:cluster';
import { availableParallelism } from 'node:os';
import { SETUP_LINK_SECONDS, type SetupLinks, setupLinks } from '../auth/setup';
import { type Config, parseConfig } from '../config';
import type { Store } from '../domain/ports';
import { createEmbedder } from '../embeddings/index';
import { adminActions } from '../operator/admin';
import { runPrimary } from './cluster';
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
    announce(server.config, server.url, 1, server.store, await firstStart(server.store, server.setup));
    return;
  }
  // the primary: migrates (opening the store does) and makes the first key, once, before any worker
  const store = await openStoreFor(config, 1);
  const setup = setupLinks();
  let started: FirstStart;
  try {
    started = await firstStart(store, setup);
  } finally {
    await store.close();
  }
  const invite = setup.current();
  runPrimary({
    workers,
    env: { CAIRN_WORKERS: String(workers), ...(invite && { CAIRN_SETUP_INVITE: JSON.stringify(invite) }) },
    onListening: (port) => announce(config, serverUrl(config, port), workers, store, started),
  });
}

interface FirstStart {
  /** On a database without orgs: the org `default` and its first key, made now. */
  created: Awaited<ReturnType<ReturnType<typeof adminActions>['createOrg']>> | undefined;
  /** While `default` has no owner: the setup link's token. */
  setupToken: string | undefined;
}

/** The org `default` and its key on an empty database; a setup link while nobody owns it. */
async function firstStart(store: Store, setup: SetupLinks): Promise<FirstStart> {
  const created =
    (await store.admin.listOrgs()).length > 0
      ? undefined
      : await adminActions(store, 'first-start').createOrg('default');
  const unowned = await store.admin.setupOrg();
  return { created, setupToken: unowned ? await setup.mint(unowned) : undefined };
}

function announce(config: Config, url: string, workers: number, store: Store, started: FirstStart) {
  const processes = workers > 1 ? ` (${workers} worker processes)` : '';
  console.log(`Cairn ${config.version} is serving MCP at ${url}/mcp${processes}`);
  console.log(`Database: ${config.databaseUrl ? 'Postgres (DATABASE_URL)' : `embedded, in ${config.dataDir}/db`}`);
  if (config.embeddings && store.vectorsUnavailable) {
    console.error(`[cairn] semantic recall is off: ${store.vectorsUnavailable}; recall is lexical`);
  }
  const { created, setupToken } = started;
  if (created) {
    console.log(`\nFirst start: created org "default" (${created.org.id}) and its first API key.`);
    console.log(
      `API key (shown once, keep it in a password manager or an environment variable):\n\n  ${created.key.secret}\n`,
    );
    console.log(
      'Client configuration: URL plus headers X-Svc-Key (the key), X-Svc-Agent (a name per agent), X-Svc-Project (optional).',
    );
  }
  if (setupToken) {
    console.log(
      `\nNobody owns org "default" yet. To see its memory, ledger and keys, open this one-time setup link\n(valid ${SETUP_LINK_SECONDS / 3600} hours, until used or the server restarts) and create the account that owns it:\n\n  ${url}/dashboard/setup?token=${setupToken}\n`,
    );
  } else if (created) console.log(`Dashboard: ${url}/dashboard`);
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
