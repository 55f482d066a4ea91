/**
 * The agent-side `cairn` commands, beside an agent, against any install through its /mcp endpoint
 * (CONTRACT §10). bin/cairn.js loads this module for them, never the server: src/agent imports
 * nothing of the server, storage or dashboard (test/architecture.test.ts), so it starts fast.
 *   brief [--budget N] [--json]                      the current project's brief
 *   recall QUERY [--paths P…] [--limit N] [--json]   recall's hits
 *   hook EVENT [--client claude-code|codex]          a client hook (hook.ts)
 *   connect CLIENT [--user] [--print] [--uninstall]  sets a client up (connect-command.ts)
 * Errors: one line on stderr, exit 1 — except `hook`, which never fails the agent's session: exit 0,
 * nothing on stdout, one line on stderr.
 */
import { fstatSync, readFileSync, writeSync } from 'node:fs';
import { briefCommand, recallCommand } from './commands';
import { AgentError, readConfig } from './config';
import { connectCommand } from './connect-command';
import { CLIENTS, HOOK_EVENTS, type HookEvent, LIMIT_MS, runHook } from './hook';
import type { Client } from './hook-context';

export const AGENT_COMMANDS = ['brief', 'recall', 'hook', 'connect'] as const;

const USAGE = `usage: cairn brief [--budget N] [--json]
       cairn recall QUERY [--paths P…] [--limit N] [--json]
       cairn hook session-start|user-prompt|stop [--client claude-code|codex]
       cairn connect claude-code|codex|cursor [--user] [--print] [--uninstall]
Configuration: CAIRN_URL, CAIRN_KEY (required), CAIRN_AGENT, CAIRN_PROJECT, CAIRN_BRIEF_BUDGET,
CAIRN_STOP_HOOK=off (docs/configuration.md).`;

const SWITCHES = new Set(['json', 'help', 'user', 'print', 'uninstall']);
/** Flags that take every value up to the next flag. */
const LISTS = new Set(['paths']);

interface Args {
  words: string[];
  flags: Record<string, string | string[] | true>;
}

export function parseArgs(argv: string[]): Args {
  const words: string[] = [];
  const flags: Args['flags'] = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (!a.startsWith('--')) {
      words.push(a);
      continue;
    }
    const name = a.slice(2);
    if (SWITCHES.has(name)) flags[name] = true;
    else if (LISTS.has(name)) {
      const values: string[] = [];
      while (i + 1 < argv.length && !(argv[i + 1] as string).startsWith('--')) values.push(argv[++i] as string);
      flags[name] = values;
    } else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) throw new AgentError(`--${name} needs a value\n${USAGE}`);
      flags[name] = next;
      i++;
    }
  }
  return { words, flags };
}

function wholeNumber(flags: Args['flags'], name: string): number | undefined {
  const v = flags[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string' || !/^\d+$/.test(v)) throw new AgentError(`--${name} must be a whole number`);
  return Number(v);
}

/**
 * Runs a command; its exit code, once its output and errors are written to the process's stdout
 * and stderr (the process may exit at once).
 */
export async function run(argv: string[], env = process.env): Promise<number> {
  const [command, ...rest] = argv;
  if (command === 'hook') return hook(rest, env);
  try {
    const args = parseArgs(rest);
    if (args.flags.help) return print(USAGE, 0);
    if (command === 'connect') {
      const [client] = args.words;
      const on = (f: string) => args.flags[f] === true;
      return print(
        await connectCommand(
          client,
          { user: on('user'), print: on('print'), uninstall: on('uninstall') },
          env,
          process.cwd(),
        ),
        0,
      );
    }
    const config = readConfig(env);
    const json = args.flags.json === true;
    if (command === 'brief') {
      return print(await briefCommand(config, process.cwd(), wholeNumber(args.flags, 'budget'), json), 0);
    }
    if (command === 'recall') {
      const query = args.words.join(' ');
      const paths = args.flags.paths;
      const options = {
        paths: Array.isArray(paths) ? paths : undefined,
        limit: wholeNumber(args.flags, 'limit'),
        json,
      };
      return print(await recallCommand(config, process.cwd(), query, options), 0);
    }
    throw new AgentError(USAGE);
  } catch (err) {
    return fail(err, 1);
  }
}

/** `hook EVENT`: whatever happens, exit 0, and within the event's time limit. */
async function hook(argv: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const event = argv[0] as HookEvent;
  const limit = LIMIT_MS[event] ?? 1500;
  const deadline = Date.now() + limit;
  const timer = setTimeout(() => {
    write(2, `cairn hook ${argv[0] ?? ''}: gave up after ${limit} ms; nothing injected\n`).finally(() =>
      process.exit(0),
    );
  }, limit);
  try {
    const args = parseArgs(argv.slice(1));
    if (!HOOK_EVENTS.includes(event)) throw new AgentError(`unknown event ${JSON.stringify(argv[0] ?? '')}\n${USAGE}`);
    const client = (args.flags.client ?? 'claude-code') as Client;
    if (!CLIENTS.includes(client)) throw new AgentError(`--client must be one of ${CLIENTS.join(', ')}`);
    const config = readConfig(env);
    const payload = await readStdin(8 * 1024 * 1024);
    const out = await runHook(event, client, payload, config, env, deadline);
    clearTimeout(timer);
    return out ? print(out, 0) : 0;
  } catch (err) {
    clearTimeout(timer);
    return fail(err, 0, `cairn hook ${argv[0] ?? ''}`);
  }
}

/**
 * All of stdin as text; more than `max` bytes is refused. A file is read at once; a pipe or socket
 * (what a client gives) as a stream of its own, so that the event's time limit still holds when
 * the client never closes it — not as process.stdin, which takes a hook 5 ms more to set up.
 */
async function readStdin(max: number): Promise<string> {
  let stat: ReturnType<typeof fstatSync>;
  try {
    stat = fstatSync(0);
  } catch {
    return ''; // no stdin at all
  }
  if (stat.isFile()) {
    if (stat.size > max) throw new AgentError(`the hook input is over ${max} bytes`);
    return readFileSync(0, 'utf8');
  }
  const stream =
    stat.isFIFO() || stat.isSocket()
      ? new (process.getBuiltinModule('node:net').Socket)({ fd: 0, readable: true, writable: false })
      : process.stdin;
  const chunks: Buffer[] = [];
  let size = 0;
  await new Promise<void>((resolve, reject) => {
    stream.on('data', (chunk: Buffer | string) => {
      const b = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += b.length;
      if (size > max) reject(new AgentError(`the hook input is over ${max} bytes`));
      else chunks.push(b);
    });
    stream.on('end', resolve);
    stream.on('error', reject);
  });
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Writes `text` to stdout (1) or stderr (2) at once, without setting up the process's stream for
 * it (4 ms of a hook's time); a descriptor that would block takes the rest through the stream,
 * and the promise settles once it is written.
 */
function write(fd: 1 | 2, text: string): Promise<void> {
  const bytes = Buffer.from(text);
  let done = 0;
  try {
    while (done < bytes.length) done += writeSync(fd, bytes, done);
    return Promise.resolve();
  } catch (err) {
    if ((err as { code?: string }).code !== 'EAGAIN') return Promise.resolve(); // the reader is gone
    const stream = fd === 1 ? process.stdout : process.stderr;
    return new Promise((resolve) => stream.write(bytes.subarray(done), () => resolve()));
  }
}

async function print(text: string, code: number): Promise<number> {
  await write(1, text.endsWith('\n') ? text : `${text}\n`);
  return code;
}

/** One line on stderr: an AgentError's message; anything else is a fault of ours, said so. */
async function fail(err: unknown, code: number, who = 'cairn'): Promise<number> {
  const message =
    err instanceof AgentError ? err.message : `unexpected error: ${err instanceof Error ? err.message : String(err)}`;
  const line = code === 0 ? message.split('\n')[0] : message;
  await write(2, `${who}: ${line}${code === 0 ? '; nothing injected' : ''}\n`);
  return code;
}
