/**
 * The real Codex CLI (npm @openai/codex, its native binary from the platform package), installed
 * once into .tools/codex (git-ignored; not a dependency of the project: 400 MB, needed by one test)
 * and run as `codex exec` against a local stand-in for the Responses API (./responses-standin.ts),
 * configured as a model provider of its own in a temporary CODEX_HOME.
 */
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const CODEX_VERSION = '0.171.0';
const DIR = join(import.meta.dirname, '..', '..', '.tools', 'codex');
/** The platform package and the target its binary is built for (as @openai/codex's bin/codex.js picks them). */
const TARGET: Record<string, string> = {
  'linux-x64': 'x86_64-unknown-linux-musl',
  'linux-arm64': 'aarch64-unknown-linux-musl',
  'darwin-x64': 'x86_64-apple-darwin',
  'darwin-arm64': 'aarch64-apple-darwin',
};
const PLATFORM = `${process.platform}-${process.arch}`;
const BINARY = join(
  DIR,
  'node_modules',
  '@openai',
  `codex-${PLATFORM}`,
  'vendor',
  `${TARGET[PLATFORM]}`,
  'bin',
  'codex',
);

/** The binary's path, installed from the npm registry if it is not here yet (its install script is not needed). */
export function codex(): string {
  if (!TARGET[PLATFORM]) throw new Error(`no Codex binary for ${PLATFORM}`);
  if (!existsSync(BINARY)) {
    mkdirSync(DIR, { recursive: true });
    execFileSync(
      'npm',
      ['install', '--prefix', DIR, '--no-audit', '--no-fund', '--ignore-scripts', `@openai/codex@${CODEX_VERSION}`],
      { stdio: 'ignore', timeout: 300_000 },
    );
  }
  return BINARY;
}

/**
 * CODEX_HOME's config.toml: the stand-in as the model provider (its key read from STANDIN_API_KEY),
 * no update check, no analytics, and the `trusted` directories as trusted projects (Codex loads a
 * repository's .codex files only in one).
 */
export function writeCodexConfig(codexHome: string, modelUrl: string, trusted: string[] = []): void {
  mkdirSync(codexHome, { recursive: true });
  writeFileSync(
    join(codexHome, 'config.toml'),
    [
      'model = "standin-model"',
      'model_provider = "standin"',
      'check_for_update_on_startup = false',
      '',
      '[analytics]',
      'enabled = false',
      '',
      '[model_providers.standin]',
      'name = "stand-in"',
      `base_url = ${JSON.stringify(modelUrl)}`,
      'wire_api = "responses"',
      'env_key = "STANDIN_API_KEY"',
      ...trusted.flatMap((dir) => ['', `[projects.${JSON.stringify(dir)}]`, 'trust_level = "trusted"']),
      '',
    ].join('\n'),
  );
}

export interface CodexRun {
  stdout: string;
  stderr: string;
  /** Process start to exit. */
  ms: number;
}

/**
 * `codex exec ARGS PROMPT` in `cwd`, with `env` (HOME, CODEX_HOME, the CAIRN_* variables) and nothing
 * else of ours; stdin closed (codex exec reads a piped stdin as more of the prompt, and waits for it).
 */
export function runCodex(
  cwd: string,
  prompt: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<CodexRun> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(codex(), ['exec', ...args, prompt], {
      cwd,
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', STANDIN_API_KEY: 'sk-standin-not-a-key', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: 120_000,
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += String(d)));
    child.stderr.on('data', (d) => (stderr += String(d)));
    child.on('error', reject);
    child.on('close', (code) => {
      const ran = { stdout, stderr, ms: performance.now() - started };
      if (code === 0) resolve(ran);
      else reject(new Error(`codex exec exited with ${code}: ${stderr.slice(-2000)}`));
    });
  });
}
