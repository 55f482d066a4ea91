#!/usr/bin/env node
// The `cairn` command: the compiled JavaScript of dist/ (npm run build; nothing compiles TypeScript
// when it runs). The commands used beside an agent (src/agent/cli.ts: brief, recall, hook, connect)
// load dist/agent.cjs alone, never the server: they start on every hook of every session. The
// operator's commands load dist/cli.js. Node's compile cache (in the system's temporary folder)
// keeps the compiled code between runs: a hook loads its bundle in 3 ms rather than 6.
const { createRequire, enableCompileCache } = process.getBuiltinModule('node:module');
enableCompileCache?.();
/** src/agent/cli.ts AGENT_COMMANDS (test/agent/cli.test.ts checks the two agree). */
const AGENT_COMMANDS = ['brief', 'recall', 'hook', 'connect'];
const agentSide = AGENT_COMMANDS.includes(process.argv[2]);
const entry = agentSide ? '../dist/agent.cjs' : '../dist/cli.js';
let loaded;
try {
  loaded = agentSide ? createRequire(import.meta.url)(entry) : await import(entry);
} catch (e) {
  const missing = e?.code === 'ERR_MODULE_NOT_FOUND' || e?.code === 'MODULE_NOT_FOUND';
  if (missing && String(e.message).includes(entry.slice(3))) {
    console.error('cairn: not built yet; run npm run build in its folder first');
    process.exit(1);
  }
  throw e;
}
if (agentSide) {
  // run() settles once its output is written; nothing left open may hold a hook up
  process.exit(await loaded.run(process.argv.slice(2)));
}
