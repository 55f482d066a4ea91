#!/usr/bin/env node
// The `cairn` command: the compiled JavaScript of dist/ (npm run build; nothing compiles TypeScript
// when it runs). The commands used beside an agent (src/agent/cli.ts: brief, recall, hook, connect)
// load dist/agent.js alone, never the server: they start on every hook of every session. The
// operator's commands load dist/cli.js.
/** src/agent/cli.ts AGENT_COMMANDS (test/agent/cli.test.ts checks the two agree). */
const AGENT_COMMANDS = ['brief', 'recall', 'hook', 'connect'];
const agentSide = AGENT_COMMANDS.includes(process.argv[2]);
const entry = agentSide ? '../dist/agent.js' : '../dist/cli.js';
let loaded;
try {
  loaded = await import(entry);
} catch (e) {
  if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(entry.slice(3))) {
    console.error('cairn: not built yet; run npm run build in its folder first');
    process.exit(1);
  }
  throw e;
}
if (agentSide) {
  const code = await loaded.run(process.argv.slice(2));
  // open keep-alive connections must not hold the hook up: exit once the output is written
  process.stdout.write('', () => process.exit(code));
}
