/**
 * `cairn brief` and `cairn recall`: the project's brief and recall's hits, as the tools render them
 * for a model (or their structured content with --json), for the project of the working directory.
 */
import { type AgentConfig, AgentError } from './config';
import { findRepo, projectOf } from './git';
import { callTool, type ToolResult } from './mcp';

/** A command waits this long for the server. */
const REQUEST_MS = 15_000;
const GIT_MS = 2_000;

/** The project a command in `cwd` names: CAIRN_PROJECT, else git's. */
export async function projectFor(config: AgentConfig, cwd: string): Promise<string | undefined> {
  return config.project ?? projectOf(undefined, await findRepo(cwd, GIT_MS));
}

/** `cairn brief [--budget N] [--json]`. */
export async function briefCommand(config: AgentConfig, cwd: string, budget: number | undefined, json: boolean) {
  const args = budget === undefined ? { view: 'brief' } : { view: 'brief', budget_chars: budget };
  return printed(
    await callTool(config, 'space', args, { timeoutMs: REQUEST_MS, project: await projectFor(config, cwd) }),
    json,
  );
}

/** `cairn recall QUERY [--paths P…] [--limit N] [--json]`. */
export async function recallCommand(
  config: AgentConfig,
  cwd: string,
  query: string,
  options: { paths?: string[] | undefined; limit?: number | undefined; json: boolean },
) {
  const args: Record<string, unknown> = { query };
  if (options.paths?.length) args.paths = options.paths;
  if (options.limit !== undefined) args.limit = options.limit;
  const result = await callTool(config, 'recall', args, {
    timeoutMs: REQUEST_MS,
    project: await projectFor(config, cwd),
  });
  return printed(result, options.json);
}

/** The tool's text, or its structured content; a tool error is the command's error. */
function printed(result: ToolResult, json: boolean): string {
  if (result.isError) throw new AgentError(result.text.split('\n')[0] || 'the tool answered with an error');
  return json ? JSON.stringify(result.structured) : result.text;
}
