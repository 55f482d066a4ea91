// Starts the processes the hooks' benchmark times, from a process of its own: the benchmark holds
// the server and its database (about 1 GB resident), and spawning from a process that size costs
// 15-20 ms of fork alone, which `node -e 0` then showed as 51-56 ms instead of 37. A client such
// as Claude Code pays its own spawn; this measures the command's. One JSON request a line on stdin
// ({id, args, cwd, env, stdin}), one JSON answer a line on stdout ({id, code, stdout, stderr, ms}).
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { id, args, cwd, env, stdin } = JSON.parse(line);
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const code = await new Promise((resolve) => {
    child.on('error', (err) => resolve(`spawn failed: ${err.message}`));
    child.on('close', resolve);
    child.stdin.end(stdin ?? '');
  });
  process.stdout.write(`${JSON.stringify({ id, code, stdout, stderr, ms: performance.now() - started })}\n`);
}
