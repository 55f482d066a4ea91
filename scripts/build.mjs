/**
 * npm run build: the `cairn` command as compiled JavaScript in dist/ — nothing compiles TypeScript
 * when it runs. Two bundles of the sources (packages stay imports of node_modules, but drizzle-orm):
 *   dist/cli.js     the server and the operator's commands (src/cli/cli.ts), an ES module
 *   dist/agent.cjs  the agent-side commands (src/agent/cli.ts), which load nothing of the server:
 *                   CommonJS, since a hook starts on every prompt and an ES module's import of
 *                   node:fs alone costs 4 ms more than a require (docs/design.md, "The agent side")
 * bin/cairn.js picks one by the command. Plain JavaScript, so it runs before anything is built.
 */
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { build } from 'esbuild';

// drizzle-orm is bundled: its package.json (179 KB of subpath exports) is parsed again for each of
// its modules Node resolves, 0.4 s of every `cairn` command's start
const inlined = ['drizzle-orm'];
const { dependencies = {} } = JSON.parse(readFileSync('package.json', 'utf8'));
const external = Object.keys(dependencies)
  .filter((d) => !inlined.includes(d))
  .flatMap((d) => [d, `${d}/*`]);

const common = {
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node22',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
};
const started = Date.now();
const built = ['dist/cli.js'];
await build({
  ...common,
  entryPoints: { cli: 'src/cli/cli.ts' },
  format: 'esm',
  packages: undefined,
  external,
  // the JSX of the dashboard's pages (hono/jsx), as tsconfig.json sets it
  jsx: 'automatic',
  jsxImportSource: 'hono/jsx',
});
if (existsSync('src/agent/cli.ts')) {
  await build({
    ...common,
    entryPoints: { agent: 'src/agent/cli.ts' },
    format: 'cjs',
    outExtension: { '.js': '.cjs' },
  });
  built.push('dist/agent.cjs');
}
// the agent bundle of earlier builds, an ES module
rmSync('dist/agent.js', { force: true });
rmSync('dist/agent.js.map', { force: true });
console.log(`built ${built.join(', ')} in ${Date.now() - started} ms`);
