/**
 * Before the node project's tests: the `cairn` command they run (bin/cairn.js) is the compiled
 * dist/, so it is built from the sources as they are now (npm run build, ~0.2 s).
 */
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export default function setup(): void {
  execFileSync(process.execPath, ['scripts/build.mjs'], {
    cwd: fileURLToPath(new URL('..', import.meta.url)),
    stdio: 'inherit',
  });
}
