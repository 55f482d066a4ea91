/**
 * The `cairn` command. serve [--workers N] | migrate | org create NAME | org list | key create --org ID
 * [--name N] [--agent A] | key list --org ID | key revoke KEY_ID | ledger verify --org ID | user create | embed [--org ID]
 * | plan set|list | org plan | org usage | export --org ID [--out FILE] [--private] | ledger verify --file FILE
 * | import FILE --org ID. `--json`
 * prints one JSON object.
 * Operator commands open the database directly; while a server holds the embedded database they go
 * to that server's /admin through its local admin channel (src/node/local-admin.ts), and say so.
 */
import { createReadStream, createWriteStream, existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type Config, parseConfig } from '../config';
import { planInput } from '../domain/limits';
import { createEmbedder } from '../embeddings/index';
import { findLocalAdmin } from '../node/local-admin';
import { openStoreFor } from '../node/node';
import { serve } from '../node/serve';
import { adminActions } from '../operator/admin';
import { directOperator, type Operator, remoteOperator } from '../operator/operator';
import { expectedHead, linesOf, verifyExport } from '../operator/portable';
import { createFsBlobStore } from '../storage/blobs/fs';
import { printHuman } from './text';

const USAGE = `usage: cairn <command>
  serve [--workers N]                start the server (embedded database unless DATABASE_URL is set);
                                     on Postgres N processes serve the port (default: CAIRN_WORKERS,
                                     else one per core); the embedded database, by one process
  migrate                            apply database migrations and exit
  org create NAME [--json]           create an org and print its first API key (shown once)
  org list [--json]
  key create --org ORG_ID [--name NAME] [--agent NAME] [--json]
                                     a new API key (shown once); --agent binds it: it acts as
                                     that agent only, and X-Svc-Agent cannot name another
  key list --org ORG_ID [--json]
  key revoke KEY_ID [--json]
  ledger verify --org ORG_ID [--json]
  ledger verify --file FILE [--json] verify an export offline: its chain, counts, head, rows,
                                     and each entry against the events that wrote it
  export --org ORG_ID [--out FILE] [--private] [--json]
                                     the org as NDJSON (entries with every version, artifacts
                                     with their bytes, the ledger); --private: with the agents'
                                     private notes (recorded in the ledger); stdout without --out;
                                     its ledger head (hash) is reported on stderr
  import FILE --org ORG_ID [--expect-head HASH] [--json]
                                     load an export into an empty org (made if no org has the
                                     id); --expect-head: refused unless its ledger ends at HASH,
                                     the head its export reported
  import --abort --org ORG_ID        undo an import that was cut off
  user create --org ORG_ID --email EMAIL [--json]
                                     a dashboard account owning the org; its password is
                                     CAIRN_USER_PASSWORD, or generated and shown once
  embed [--org ORG_ID] [--json]      give entries written before semantic recall was on their vectors
                                     (CAIRN_EMBEDDINGS_* as for serve; every org unless --org)
  sweep [--org ORG_ID] [--older-than-minutes 60] [--json]
                                     delete artifact bytes no artifact names (older than the
                                     minutes given), report artifacts whose bytes are missing
  plan set PLAN_ID [--requests-per-minute N] [--tool-calls-per-month N] [--stored-bytes N]
           [--artifact-bytes N] [--entry-chars N] [--default] [--json]
                                     create or replace a plan; a limit left out is none; --default:
                                     the plan of every org not put on another
  plan list [--json]
  org plan --org ORG_ID (PLAN_ID | --clear) [--json]
                                     put an org on a plan; --clear: back on the default plan
  org usage --org ORG_ID [--days N] [--json]
                                     the org's plan, this month's tool calls, stored bytes, per day
Beside an agent (any install, through its /mcp; CAIRN_URL, CAIRN_KEY, CAIRN_AGENT, CAIRN_PROJECT):
  brief [--budget N] [--json]        the brief of the working directory's project
  recall QUERY [--paths P…] [--limit N] [--json]
  hook session-start|user-prompt|stop [--client claude-code|codex]
                                     a client hook: the client's JSON on stdin and stdout
While \`cairn serve\` holds the embedded database, these commands go to it (its /admin, through the
token it wrote to CAIRN_DATA_DIR/admin.json, from this machine only) and say so; migrate and embed
need it stopped. On Postgres they work on the database directly.`;

/** Flags that take no value. */
const SWITCHES = new Set(['json', 'default', 'clear', 'help', 'private', 'abort']);
const PLAN_LIMITS = ['requests_per_minute', 'tool_calls_per_month', 'stored_bytes', 'artifact_bytes', 'entry_chars'];

interface Args {
  words: string[];
  flags: Record<string, string | true>;
}

function parseArgs(argv: string[]): Args {
  const words: string[] = [];
  const flags: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('--')) {
      const next = argv[i + 1];
      if (SWITCHES.has(a.slice(2)) || next === undefined || next.startsWith('--')) flags[a.slice(2)] = true;
      else {
        flags[a.slice(2)] = next;
        i++;
      }
    } else words.push(a);
  }
  return { words, flags };
}

function need(flags: Args['flags'], name: string): string {
  const v = flags[name];
  if (typeof v !== 'string') throw new Error(`--${name} is required\n${USAGE}`);
  return v;
}

/** `serve [--workers N]`: the flag wins over CAIRN_WORKERS. */
function serveCommand(args: Args): Promise<void> {
  const workers = args.flags.workers;
  if (workers === undefined) return serve(process.env);
  if (typeof workers !== 'string' || !/^[1-9]\d*$/.test(workers)) {
    throw new Error(`--workers: a whole number, at least 1\n${USAGE}`);
  }
  return serve({ ...process.env, CAIRN_WORKERS: workers });
}

/** Runs an operator command: on the database itself, or through the server that holds the embedded one. */
async function operatorCommand(args: Args): Promise<unknown> {
  const config = parseConfig(process.env);
  const [noun, verb] = args.words;
  const single = ['migrate', 'embed', 'sweep', 'export', 'import'];
  const command = single.includes(noun as string) ? (noun as string) : `${noun} ${verb}`;
  const running = config.databaseUrl ? undefined : findLocalAdmin(config.dataDir);
  if (command === 'migrate' || command === 'embed') {
    if (running) {
      throw new Error(
        `the server running at ${running.url} (process ${running.pid}) holds the embedded database in ${config.dataDir}; ${command === 'migrate' ? 'it applied the migrations when it started' : 'stop it to run embed (or restart it: it embeds what is written from then on)'}`,
      );
    }
    return databaseCommand(command, args, config);
  }
  if (running) {
    // on stderr: with --json, stdout stays one JSON object
    console.error(`cairn: talking to the running server at ${running.url} (process ${running.pid})`);
    return runOperator(command, args, remoteOperator(running));
  }
  const store = await openStoreFor(config);
  try {
    return await runOperator(command, args, directOperator(store, createFsBlobStore(join(config.dataDir, 'blobs'))));
  } finally {
    await store.close();
  }
}

async function runOperator(command: string, args: Args, op: Operator): Promise<unknown> {
  const arg = args.words[2];
  const orgs = async () =>
    typeof args.flags.org === 'string' ? [args.flags.org] : (await op.listOrgs()).orgs.map((o) => o.id);
  switch (command) {
    case 'org create':
      if (!arg) throw new Error(`org create needs a NAME\n${USAGE}`);
      return op.createOrg(arg);
    case 'org list':
      return op.listOrgs();
    case 'key create':
      return op.createKey(
        need(args.flags, 'org'),
        typeof args.flags.name === 'string' ? args.flags.name : 'cli key',
        typeof args.flags.agent === 'string' ? args.flags.agent : null,
      );
    case 'key list':
      return op.listKeys(need(args.flags, 'org'));
    case 'key revoke':
      if (!arg) throw new Error(`key revoke needs a KEY_ID\n${USAGE}`);
      return op.revokeKey(arg);
    case 'ledger verify':
      return op.verifyLedger(need(args.flags, 'org'));
    case 'export':
      return writeExport(
        op.exportOrg(need(args.flags, 'org'), args.flags.private === true),
        typeof args.flags.out === 'string' ? args.flags.out : undefined,
      );
    case 'import': {
      const orgId = need(args.flags, 'org');
      if (args.flags.abort === true) return op.abortImport(orgId);
      const file = args.words[1];
      if (!file) throw new Error(`import needs the export FILE\n${USAGE}`);
      if (!existsSync(file)) throw new Error(`import: no file ${file}`);
      return op.importFile(orgId, createReadStream(file), expectedHead(args.flags['expect-head'], '--expect-head'));
    }
    case 'user create':
      return op.addUser(need(args.flags, 'org'), need(args.flags, 'email'), process.env.CAIRN_USER_PASSWORD);
    case 'sweep': {
      const minutes =
        typeof args.flags['older-than-minutes'] === 'string' ? Number(args.flags['older-than-minutes']) : 60;
      if (!Number.isInteger(minutes) || minutes < 0) throw new Error('--older-than-minutes: a whole number');
      const swept = [];
      for (const id of await orgs()) swept.push(await op.sweep(id, minutes));
      return { orgs: swept };
    }
    case 'plan set': {
      const input: Record<string, unknown> = { id: arg, is_default: args.flags.default === true };
      for (const name of PLAN_LIMITS) {
        const v = args.flags[name.replaceAll('_', '-')];
        if (v !== undefined) input[name] = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : v;
      }
      const plan = planInput.safeParse(input);
      if (!plan.success) {
        const issue = plan.error.issues[0];
        const flag = issue?.path[0] === 'id' ? 'PLAN_ID' : `--${String(issue?.path[0]).replaceAll('_', '-')}`;
        throw new Error(`plan set: ${flag}: ${issue?.message}`);
      }
      return op.putPlan(plan.data);
    }
    case 'plan list':
      return op.plans();
    case 'org plan': {
      if (!arg && args.flags.clear !== true) throw new Error(`org plan needs a PLAN_ID or --clear\n${USAGE}`);
      return op.setOrgPlan(need(args.flags, 'org'), arg ?? null);
    }
    case 'org usage': {
      const days = typeof args.flags.days === 'string' ? Number(args.flags.days) : 30;
      if (!Number.isInteger(days) || days < 0 || days > 366) throw new Error('--days: a whole number from 0 to 366');
      return op.usage(need(args.flags, 'org'), days);
    }
    default:
      throw new Error(USAGE);
  }
}

/**
 * Writes an export to FILE (through FILE.partial, renamed once whole: a file that is there is
 * whole) or to stdout; returns what the end line counted.
 */
async function writeExport(chunks: AsyncIterable<Uint8Array | string>, out: string | undefined) {
  let last = '';
  async function* tap() {
    for await (const chunk of chunks) {
      // only the tail is kept (the end line, ASCII): a chunk of bytes is not decoded whole
      const tail = typeof chunk === 'string' ? chunk : Buffer.from(chunk.subarray(-4096)).toString('latin1');
      last = (last + tail).slice(-4096);
      yield chunk;
    }
  }
  const partial = out && `${out}.partial`;
  try {
    await pipeline(tap(), partial ? createWriteStream(partial) : process.stdout, { end: Boolean(partial) });
  } catch (err) {
    if (partial) rmSync(partial, { force: true });
    throw err;
  }
  if (partial) renameSync(partial, out);
  const end = JSON.parse(last.trim().split('\n').at(-1) ?? '{}') as {
    counts?: Record<string, number>;
    head?: { seq: number; hash: string };
  };
  return { ok: true, exported: end.counts ?? {}, out: out ?? null, head: end.head ?? null };
}

/** `migrate` and `embed`: the database itself, never through a server. */
async function databaseCommand(command: 'migrate' | 'embed', args: Args, config: Config): Promise<unknown> {
  const store = await openStoreFor(config);
  try {
    if (command === 'migrate') {
      // opening the store applied them, and set up the vector store if configured
      const applied = store.migrated ?? { migrations: [], functions: [] };
      const done = { ok: true, migrated: true, migrations: applied.migrations, functions: applied.functions };
      return config.embeddings ? { ...done, semantic_recall: store.vectorsUnavailable ?? 'ready' } : done;
    }
    const embedder = createEmbedder(config.embeddings);
    if (!embedder) {
      throw new Error(
        'embed needs semantic recall configured: set CAIRN_EMBEDDINGS (docs/self-host.md, "Semantic recall")',
      );
    }
    if (store.vectorsUnavailable) throw new Error(`semantic recall is unavailable: ${store.vectorsUnavailable}`);
    const ops = adminActions(store, 'cli');
    const orgs =
      typeof args.flags.org === 'string' ? [args.flags.org] : (await store.admin.listOrgs()).map((o) => o.id);
    const done = [];
    for (const id of orgs) done.push(await ops.embedMissing(id, embedder));
    return { orgs: done };
  } finally {
    await store.close();
  }
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const command = args.words[0];
  if (!command || command === 'help' || args.flags.help) {
    console.log(USAGE);
    return;
  }
  if (command === 'serve') return serveCommand(args);
  const file = args.flags.file;
  const result =
    command === 'ledger' && typeof file === 'string'
      ? await verifyExport(linesOf(createReadStream(file)))
      : await operatorCommand(args);
  // an export written to stdout keeps stdout for the file
  if (args.flags.json) (command === 'export' && !args.flags.out ? console.error : console.log)(JSON.stringify(result));
  else printHuman(result);
  if ((result as { ok?: boolean }).ok === false) process.exitCode = 1;
}

main().catch((err) => {
  console.error(`cairn: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
