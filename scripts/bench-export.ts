/**
 * `npm run bench:export`: how long `cairn export` takes and how much memory it holds for an org of
 * each size, then `cairn ledger verify --file` on the file and `cairn import` of it into a new
 * database — each a `cairn` process as an operator runs it, its peak RSS read from /proc
 * (VmHWM). The orgs are the service benchmark's templates (`npm run bench -- --load-only` makes
 * them), copied for the run. Writes bench/results/export-<date>.json and prints a table.
 *
 *   --sizes 100000,1000000      entries (a template of each must exist)
 *   --import-sizes 100000       sizes also imported (an import writes every entry again)
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL, dbUrl, type Manifest, ROOT, STATE } from './bench/databases';

const argv = process.argv.slice(2);
const arg = (name: string, d: string) => {
  const i = argv.indexOf(`--${name}`);
  return (i >= 0 ? argv[i + 1] : undefined) ?? d;
};
const SIZES = arg('sizes', '100000,1000000').split(',').map(Number);
const IMPORT_SIZES = arg('import-sizes', '100000').split(',').filter(Boolean).map(Number);
const RUN_DB = 'cairn_export_run';
const TARGET_DB = 'cairn_import_run';
const FILE = join(STATE, 'export.ndjson');

async function admin(sql: string) {
  const c = new pg.Client({ connectionString: ADMIN_URL });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Runs `cairn …` on a database; its time, its peak RSS (MiB) and its JSON answer. */
function cairn(args: string[], databaseUrl: string): Promise<{ seconds: number; peakMiB: number; out: unknown }> {
  const started = performance.now();
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'cairn.js'), ...args, '--json'], {
    env: { ...process.env, DATABASE_URL: databaseUrl, CAIRN_DATA_DIR: join(STATE, 'export-data') },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let peak = 0;
  const timer = setInterval(() => {
    try {
      const kb = /VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${child.pid}/status`, 'utf8'))?.[1];
      peak = Math.max(peak, Number(kb ?? 0));
    } catch {
      // exited
    }
  }, 50);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => {
    stdout += d;
  });
  child.stderr.on('data', (d) => {
    stderr += d;
  });
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => {
      clearInterval(timer);
      const lines = (args[0] === 'export' ? stderr : stdout).split('\n');
      const text = lines.filter((l) => l.startsWith('{')).at(-1) ?? '{}';
      if (code !== 0) return reject(new Error(`cairn ${args.join(' ')} failed: ${stderr.slice(-500)}`));
      resolve({ seconds: (performance.now() - started) / 1000, peakMiB: peak / 1024, out: JSON.parse(text) });
    });
  });
}

const rows: Record<string, unknown>[] = [];
for (const size of SIZES) {
  const manifestPath = join(STATE, `postgres-${size}.json`);
  if (!existsSync(manifestPath)) throw new Error(`no template of ${size} entries: run npm run bench -- --load-only`);
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as Manifest & { orgId: string; schema: string };
  const template = `cairn_bench_t${size}_${manifest.schema.slice(0, 8)}`;
  await admin(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
  await admin(`CREATE DATABASE ${RUN_DB} TEMPLATE ${template} STRATEGY FILE_COPY`);
  mkdirSync(join(STATE, 'export-data'), { recursive: true });
  await cairn(['migrate'], dbUrl(RUN_DB)); // this revision's schema, as a release upgrades it
  rmSync(FILE, { force: true });
  const exp = await cairn(['export', '--org', manifest.orgId, '--out', FILE], dbUrl(RUN_DB));
  const bytes = statSync(FILE).size;
  const verify = await cairn(['ledger', 'verify', '--file', FILE], dbUrl(RUN_DB));
  const row: Record<string, unknown> = {
    entries: size,
    exported: (exp.out as { exported: unknown }).exported,
    file_mib: +(bytes / 2 ** 20).toFixed(1),
    export_s: +exp.seconds.toFixed(1),
    export_peak_rss_mib: +exp.peakMiB.toFixed(0),
    verify_s: +verify.seconds.toFixed(1),
    verify_peak_rss_mib: +verify.peakMiB.toFixed(0),
    verify_ok: (verify.out as { ok: boolean }).ok,
  };
  await admin(`DROP DATABASE IF EXISTS ${RUN_DB} WITH (FORCE)`);
  if (IMPORT_SIZES.includes(size)) {
    await admin(`DROP DATABASE IF EXISTS ${TARGET_DB} WITH (FORCE)`);
    await admin(`CREATE DATABASE ${TARGET_DB}`);
    const imp = await cairn(['import', FILE, '--org', manifest.orgId], dbUrl(TARGET_DB));
    const check = await cairn(['ledger', 'verify', '--org', manifest.orgId], dbUrl(TARGET_DB));
    Object.assign(row, {
      import_s: +imp.seconds.toFixed(1),
      import_peak_rss_mib: +imp.peakMiB.toFixed(0),
      imported_verify_ok: (check.out as { ok: boolean }).ok,
    });
    await admin(`DROP DATABASE IF EXISTS ${TARGET_DB} WITH (FORCE)`);
  }
  rmSync(FILE, { force: true });
  rows.push(row);
  console.error(JSON.stringify(row));
}

const date = new Date().toISOString().slice(0, 10);
writeFileSync(join(ROOT, 'bench', 'results', `export-${date}.json`), `${JSON.stringify({ date, rows }, null, 2)}\n`);
console.log(
  '| entries | file MiB | export s | export peak RSS MiB | verify --file s | verify peak RSS MiB | import s | import peak RSS MiB |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  console.log(
    `| ${r.entries} | ${r.file_mib} | ${r.export_s} | ${r.export_peak_rss_mib} | ${r.verify_s} | ${r.verify_peak_rss_mib} | ${r.import_s ?? '—'} | ${r.import_peak_rss_mib ?? '—'} |`,
  );
}
