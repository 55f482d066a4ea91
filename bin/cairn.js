#!/usr/bin/env node
// The `cairn` command: loads the TypeScript sources through tsx (no build step). The commands used
// beside an agent (src/agent/cli.ts: brief, recall, hook) load src/agent alone, never the server:
// they start on every hook of every session. The operator's commands load src/cli.ts.
import { register } from 'tsx/esm/api';

register();
/** src/agent/cli.ts AGENT_COMMANDS (test/agent/cli.test.ts checks the two agree). */
const AGENT_COMMANDS = ['brief', 'recall', 'hook'];
if (AGENT_COMMANDS.includes(process.argv[2])) {
  const { run } = await import('../src/agent/cli.ts');
  const code = await run(process.argv.slice(2));
  // open keep-alive connections must not hold the hook up: exit once the output is written
  process.stdout.write('', () => process.exit(code));
} else {
  await import('../src/cli.ts');
}
