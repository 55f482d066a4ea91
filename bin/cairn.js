#!/usr/bin/env node
// The `cairn` command: the compiled JavaScript of dist/ (npm run build). The agent-side commands,
// which run before every prompt, load only dist/agent.js: nothing of the server, its database
// drivers or the dashboard.
const AGENT_SIDE = new Set(['brief', 'recall', 'hook', 'connect']);
const entry = AGENT_SIDE.has(process.argv[2]) ? '../dist/agent.js' : '../dist/cli.js';
try {
  await import(entry);
} catch (e) {
  if (e?.code === 'ERR_MODULE_NOT_FOUND' && String(e.message).includes(entry.slice(3))) {
    console.error('cairn: not built yet; run npm run build in its folder first');
    process.exit(1);
  }
  throw e;
}
