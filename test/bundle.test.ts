/**
 * The Worker's size budget: `wrangler deploy --dry-run` bundles exactly what would be uploaded;
 * its gzipped size must stay under 500 KiB (figure recorded in BENCHMARKS.md).
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const WRANGLER = join(dirname(createRequire(import.meta.url).resolve('wrangler/package.json')), 'bin', 'wrangler.js');
const BUDGET_KIB = 500;

it(`bundles the Worker under ${BUDGET_KIB} KiB gzipped`, async () => {
  const out = await mkdtemp(join(tmpdir(), 'cairn-bundle-'));
  try {
    const { stdout } = await promisify(execFile)(process.execPath, [WRANGLER, 'deploy', '--dry-run', '--outdir', out], {
      cwd: join(import.meta.dirname, '..'),
      env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1' },
    });
    const gzip = Number(/gzip: ([\d.]+) KiB/.exec(stdout)?.[1]);
    expect(gzip).toBeGreaterThan(50); // the app really is in it
    expect(gzip).toBeLessThan(BUDGET_KIB);
  } finally {
    await rm(out, { recursive: true, force: true });
  }
}, 120_000);
