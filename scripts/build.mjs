/**
 * npm run build: the `cairn` command as compiled JavaScript in dist/ — nothing compiles TypeScript
 * when it runs. Two bundles of the sources (packages stay imports of node_modules):
 *   dist/cli.js    the server and the operator's commands (src/cli/cli.ts)
 *   dist/agent.js  the agent-side commands (src/agent/cli.ts), which load nothing of the server
 * bin/cairn.js picks one by the command. Plain JavaScript, so it runs before anything is built.
 */
import { existsSync } from 'node:fs';
import { build } from 'esbuild';

const entries = { cli: 'src/cli/cli.ts' };
if (existsSync('src/agent/cli.ts')) entries.agent = 'src/agent/cli.ts';

const started = Date.now();
await build({
  entryPoints: entries,
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
  // the JSX of the dashboard's pages (hono/jsx), as tsconfig.json sets it
  jsx: 'automatic',
  jsxImportSource: 'hono/jsx',
});
console.log(
  `built ${Object.keys(entries)
    .map((e) => `dist/${e}.js`)
    .join(', ')} in ${Date.now() - started} ms`,
);
