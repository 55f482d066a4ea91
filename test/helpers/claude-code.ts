/**
 * The real Claude Code CLI (npm @anthropic-ai/claude-code, its native Linux binary), installed once
 * into .tools/claude-code (git-ignored; not a dependency of the project: 400 MB, needed by one
 * test) and run in print mode against a local stand-in for the model API (./model-standin.ts).
 */
import { execFile, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

export const CLAUDE_CODE_VERSION = '2.1.332';
const DIR = join(import.meta.dirname, '..', '..', '.tools', 'claude-code');
const BINARY = join(DIR, 'node_modules', '@anthropic-ai', `claude-code-${process.platform}-${process.arch}`, 'claude');

/** The binary's path, installed from the npm registry if it is not here yet (its install script is not needed). */
export function claudeCode(): string {
  if (!existsSync(BINARY)) {
    mkdirSync(DIR, { recursive: true });
    execFileSync(
      'npm',
      [
        'install',
        '--prefix',
        DIR,
        '--no-audit',
        '--no-fund',
        '--ignore-scripts',
        `@anthropic-ai/claude-code@${CLAUDE_CODE_VERSION}`,
      ],
      { stdio: 'ignore', timeout: 300_000 },
    );
  }
  return BINARY;
}

export interface ClaudeRun {
  stdout: string;
  stderr: string;
}

/** `claude -p PROMPT` in `cwd`, with `env` (HOME, ANTHROPIC_BASE_URL, the CAIRN_* variables) and nothing else of ours. */
export async function runClaude(
  cwd: string,
  prompt: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<ClaudeRun> {
  const { stdout, stderr } = await promisify(execFile)(
    claudeCode(),
    ['-p', prompt, '--output-format', 'json', ...args],
    {
      cwd,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        ANTHROPIC_API_KEY: 'sk-ant-standin-not-a-key',
        DISABLE_AUTOUPDATER: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        ...env,
      },
    },
  );
  return { stdout, stderr };
}
