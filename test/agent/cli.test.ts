/**
 * The agent side's entry: `cairn brief|recall|hook|connect` load dist/agent.cjs alone (bin/cairn.js
 * never reaches the server's CLI for them), a bundle of src/agent and nothing else of the server;
 * the operator's commands load dist/cli.js; arguments that make no sense are refused in one line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_COMMANDS } from '../../src/agent/cli';
import { BIN, cairn } from '../helpers/agent';

const ROOT = join(import.meta.dirname, '..', '..');
const RECORD = join(ROOT, 'test', 'fixtures', 'record-loads.mjs');
const dir = mkdtempSync(join(tmpdir(), 'cairn-agent-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The project's files a `cairn` command loads (its compiled dist/ and any source), relative to the root. */
async function sourcesLoaded(args: string[], env: Record<string, string>): Promise<string[]> {
  const file = join(dir, `loads-${args[0]}.txt`);
  await promisify(execFile)(process.execPath, ['--import', RECORD, BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, RECORD_LOADS: file, ...env },
  }).catch(() => undefined); // the command may fail: what it loaded is the point
  const urls = readFileSync(file, 'utf8').trim().split('\n');
  return [...new Set(urls.map((u) => relative(ROOT, fileURLToPath(u))).filter((p) => /^(src|dist)\//.test(p)))].sort();
}

describe('cairn, beside an agent', () => {
  it('brief, recall, hook and connect load dist/agent.cjs alone, the operator commands dist/cli.js', async () => {
    const env = { CAIRN_URL: 'http://127.0.0.1:9', CAIRN_KEY: `svc_${'k'.repeat(40)}` };
    for (const args of [['recall', 'kysely'], ['brief'], ['hook', 'session-start'], ['connect', 'cursor', '--print']]) {
      expect(await sourcesLoaded(args, env)).toEqual(['dist/agent.cjs']);
    }
    expect(await sourcesLoaded(['help'], {})).toEqual(['dist/cli.js']);
  }, 60_000);

  it('bundles src/agent and nothing else of src into dist/agent.cjs', async () => {
    const { metafile } = await build({
      entryPoints: [join(ROOT, 'src', 'agent', 'cli.ts')],
      bundle: true,
      platform: 'node',
      format: 'cjs',
      packages: 'external',
      write: false,
      metafile: true,
      absWorkingDir: ROOT,
    });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs).toContain('src/agent/cli.ts');
    expect(inputs.filter((p) => !p.startsWith('src/agent/')).sort()).toEqual([
      'src/domain/terms.ts',
      'src/domain/vocabulary.ts',
    ]);
    // and no package at all: node's own modules only
    expect(
      Object.values(metafile.outputs)
        .flatMap((o) => o.imports.map((i) => i.path))
        .filter((p) => !p.startsWith('node:')),
    ).toEqual([]);
  });

  it('bin/cairn.js sends the same commands to src/agent as src/agent/cli.ts serves', () => {
    const bin = readFileSync(BIN, 'utf8');
    const listed = /const AGENT_COMMANDS = (\[[^\]]*\])/.exec(bin)?.[1] ?? '';
    expect(JSON.parse(listed.replaceAll("'", '"'))).toEqual([...AGENT_COMMANDS]);
  });

  it('refuses arguments that make no sense, in one line, exit 1', async () => {
    const env = { CAIRN_URL: 'http://127.0.0.1:9', CAIRN_KEY: `svc_${'k'.repeat(40)}`, HOME: dir };
    const budget = await cairn(['brief', '--budget', 'lots'], { cwd: dir, env });
    expect(budget).toMatchObject({ code: 1, stdout: '', stderr: 'cairn: --budget must be a whole number\n' });
    const limit = await cairn(['recall', 'kysely', '--limit'], { cwd: dir, env });
    expect(limit).toMatchObject({ code: 1, stdout: '' });
    expect(limit.stderr).toMatch(/^cairn: --limit needs a value\nusage: cairn brief/);
    const url = await cairn(['brief'], { cwd: dir, env: { ...env, CAIRN_URL: 'ftp://cairn.example.com' } });
    expect(url.stderr).toBe('cairn: CAIRN_URL must be an http or https URL, not ftp:\n');
  });
});
