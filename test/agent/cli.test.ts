/**
 * The agent side's entry: `cairn brief|recall|hook` load src/agent alone (bin/cairn.js never
 * reaches the server's CLI for them), the operator's commands the server's, and arguments that
 * make no sense are refused in one line.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { AGENT_COMMANDS } from '../../src/agent/cli';
import { BIN, cairn } from '../helpers/agent';

const ROOT = join(import.meta.dirname, '..', '..');
const RECORD = join(ROOT, 'test', 'fixtures', 'record-loads.mjs');
const dir = mkdtempSync(join(tmpdir(), 'cairn-agent-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The project's source files a `cairn` command loads, relative to the root. */
async function sourcesLoaded(args: string[], env: Record<string, string>): Promise<string[]> {
  const file = join(dir, `loads-${args[0]}.txt`);
  await promisify(execFile)(process.execPath, ['--import', RECORD, BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? '', HOME: dir, RECORD_LOADS: file, ...env },
  }).catch(() => undefined); // the command may fail: what it loaded is the point
  const urls = readFileSync(file, 'utf8').trim().split('\n');
  return [...new Set(urls.map((u) => relative(ROOT, fileURLToPath(u))).filter((p) => p.startsWith('src/')))].sort();
}

describe('cairn, beside an agent', () => {
  it('brief, recall and hook load src/agent and nothing else of src', async () => {
    const env = { CAIRN_URL: 'http://127.0.0.1:9', CAIRN_KEY: `svc_${'k'.repeat(40)}` };
    for (const args of [['recall', 'kysely'], ['brief'], ['hook', 'session-start']]) {
      const loaded = await sourcesLoaded(args, env);
      expect(loaded).toContain('src/agent/cli.ts');
      expect(loaded.filter((p) => !p.startsWith('src/agent/'))).toEqual(['src/domain/vocabulary.ts']);
    }
    const operator = await sourcesLoaded(['help'], {});
    expect(operator).toContain('src/cli.ts');
    expect(operator.filter((p) => p.startsWith('src/agent/'))).toEqual([]);
  }, 60_000);

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
