/**
 * The official MCP conformance suite against Cairn on the embedded database, through a loopback
 * proxy that adds the API key: the current release (0.1.16, protocol 2025-11-25, active suite) and
 * the 2026-07-28 requirements (0.2.0-alpha.12, the first release to know that revision). Each run
 * must pass everything but the scenarios its expected-failures file lists as not applying, with
 * the reason beside each; a listed scenario that starts passing fails the run too (stale entry).
 * The suite reaches nothing but the proxy (127.0.0.1).
 */
import { spawn } from 'node:child_process';
import { globSync, readFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type KeyProxy, startKeyProxy } from '../fixtures/key-proxy';
import { startTestServer, type TestServer } from '../helpers/server';

const ROOT = join(import.meta.dirname, '..', '..');
const RUNS = [
  {
    name: 'current release 0.1.16, 2025-11-25',
    bin: 'node_modules/@modelcontextprotocol/conformance/dist/index.js',
    args: ['--suite', 'active'],
    expected: 'expected-0.1.16.yml',
    mustPass: ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'],
  },
  {
    name: '2026-07-28 requirements (0.2.0-alpha.12)',
    bin: 'node_modules/conformance-next/dist/index.js',
    args: ['--requirements', '2026-07-28'],
    expected: 'expected-2026-07-28.yml',
    mustPass: [
      'tools-list',
      'dns-rebinding-protection',
      'server-sse-multiple-streams',
      'input-required-result-unsupported-methods',
      'input-required-result-validate-input',
    ],
  },
];

/** Scenario → its checks, from the suite's checks.json files. */
function results(dir: string): Map<string, { id: string; status: string; errorMessage?: string }[]> {
  const out = new Map<string, { id: string; status: string; errorMessage?: string }[]>();
  for (const file of globSync('**/checks.json', { cwd: dir })) {
    const scenario = dirname(file)
      .replace(/^server-/, '')
      .replace(/-\d{4}-\d\d-\d\dT.*$/, '');
    out.set(scenario, JSON.parse(readFileSync(join(dir, file), 'utf8')));
  }
  return out;
}

describe('MCP conformance suite', () => {
  let t: TestServer;
  let proxy: KeyProxy;

  beforeAll(async () => {
    proxy = await startKeyProxy();
    // the suite's browser-like Origin is the proxy's own: allowed, as a configured origin would be
    t = await startTestServer('pglite', { CAIRN_ALLOWED_ORIGINS: proxy.url });
    proxy.key = (await t.createOrg('conformance')).key;
    proxy.upstream = new URL(t.url);
  }, 60_000);
  afterAll(async () => {
    await proxy?.close();
    await t?.close();
  });

  it.each(RUNS)(
    'passes $name, but for the scenarios that do not apply',
    async (run) => {
      const out = await mkdtemp(join(tmpdir(), 'cairn-conformance-'));
      const args = [
        join(ROOT, run.bin),
        'server',
        '--url',
        `${proxy.url}/mcp`,
        ...run.args,
        '--expected-failures',
        join(import.meta.dirname, run.expected),
        '-o',
        out,
      ];
      const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      let log = '';
      child.stdout.on('data', (d) => {
        log += d;
      });
      child.stderr.on('data', (d) => {
        log += d;
      });
      const code = await new Promise((resolve) => child.on('close', resolve));
      const summary = log.slice(log.lastIndexOf('=== SUMMARY ==='));
      expect(code, summary).toBe(0);
      const byScenario = results(out);
      for (const scenario of run.mustPass) {
        const checks = byScenario.get(scenario);
        expect(checks, `${scenario} ran`).toBeDefined();
        const bad = (checks ?? []).filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
        expect(bad, scenario).toEqual([]);
      }
    },
    180_000,
  );
});
