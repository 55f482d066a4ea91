/**
 * `cairn connect CLIENT [--user] [--print] [--uninstall]`: the command around ./connect.ts — where
 * the files go (the repository of the working directory, or the home), which server and project
 * they name (CAIRN_URL, CAIRN_PROJECT or git), which agent the client acts as by default (CAIRN_AGENT,
 * else the client's name), and how a hook runs this very command (by its path, never through npx).
 */
import { realpathSync } from 'node:fs';
import { homedir } from 'node:os';
import { AgentError, mcpUrlOf } from './config';
import {
  applyConnect,
  CLIENTS,
  type Client,
  ConnectError,
  type ConnectSetup,
  nextSteps,
  planConnect,
  shellQuote,
} from './connect';
import { findRepo, projectOf } from './git';

export interface ConnectFlags {
  user: boolean;
  print: boolean;
  uninstall: boolean;
}

/** What connect prints: the files (with --print, their content) and the next steps. */
export async function connectCommand(
  client: string | undefined,
  flags: ConnectFlags,
  env: Record<string, string | undefined>,
  cwd: string,
): Promise<string> {
  if (!client || !(CLIENTS as readonly string[]).includes(client)) {
    throw new AgentError(
      `connect: say which client: cairn connect ${CLIENTS.join('|')} [--user] [--print] [--uninstall]`,
    );
  }
  const url = env.CAIRN_URL?.trim();
  if (!url)
    throw new AgentError("CAIRN_URL is not set: set it to the Cairn server's URL (e.g. https://cairn.example.com)");
  const repo = await findRepo(cwd, 2_000);
  if (!repo && !flags.user) {
    throw new AgentError('connect: not in a git repository; run it in the repository to set up, or pass --user');
  }
  const setup: ConnectSetup = {
    client: client as Client,
    user: flags.user,
    uninstall: flags.uninstall,
    root: repo?.root ?? cwd,
    home: env.HOME || homedir(),
    mcpUrl: mcpUrlOf(url),
    project: projectOf(env.CAIRN_PROJECT?.trim() || undefined, repo) ?? null,
    agent: env.CAIRN_AGENT?.trim() || client,
    command: `${shellQuote(process.execPath)} ${shellQuote(realpathSync(process.argv[1] ?? 'cairn'))}`,
  };
  let changes: ReturnType<typeof planConnect>;
  try {
    changes = planConnect(setup);
  } catch (e) {
    throw e instanceof ConnectError ? new AgentError(e.message) : e;
  }
  if (flags.print) {
    if (!changes.length) return `Nothing to change for ${client}.`;
    return changes.map((c) => `# ${c.path}${c.before === null ? ' (new)' : ''}\n${c.after}`).join('\n');
  }
  applyConnect(changes, setup.home);
  const done = changes.length
    ? changes.map((c) => `${c.before === null ? 'created' : 'updated'} ${c.path}`)
    : [`Nothing to change: ${client} is already ${flags.uninstall ? 'without Cairn' : 'set up'}.`];
  return [...done, ...nextSteps(setup, Boolean(env.CAIRN_KEY?.trim()))].join('\n');
}
