/**
 * `npm run bench:text`: what each tool gives back, in characters — the text that clients reading
 * `content` show the model, and the structured content that Claude Code and Codex show it
 * instead — on a realistic org: CodeRecall dev's first org replayed through the tools
 * (scripts/coderecall.ts), then every tool and every `space` view called once as one of its agents
 * in its busiest project (recall: each of that project's questions, the mean and max). Also the size of tools/list: what the model reads of it (names, descriptions, input
 * schemas) and the whole answer. Writes the table into its 'text' section of BENCHMARKS.md.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { startServer } from '../src/node/node';
import { adminActions } from '../src/operator/admin';
import { writeBenchmarkSection } from './benchmarks-md';
import { loadCodeRecall, runCodeRecall } from './coderecall';

const ROOT = join(import.meta.dirname, '..');
const org = loadCodeRecall(ROOT).slice(0, 1);
const server = await startServer({
  PORT: '0',
  HOST: '127.0.0.1',
  CAIRN_DATA_DIR: mkdtempSync(join(tmpdir(), 'cairn-bench-text-')),
});
const { answers } = await runCodeRecall(server, org);
const data = org[0] as (typeof org)[number];
const idOf = (key: string) => answers[0]?.idOf(key) as string;
const project = [...Map.groupBy(data.questions, (q) => q.project)].reduce((a, b) =>
  b[1].length > a[1].length ? b : a,
)[0] as string;
const agent = data.questions.find((q) => q.project === project)?.agent as string;
const orgId = (await server.store.admin.listOrgs())[0]?.id as string;
const { key } = await adminActions(server.store, 'bench').createKey(orgId, 'bench-text');

const client = new Client({ name: 'bench-text', version: '1' });
await client.connect(
  new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), {
    requestInit: { headers: { 'X-Svc-Key': key.secret, 'X-Svc-Agent': agent, 'X-Svc-Project': project } },
  }),
);

interface Row {
  call: string;
  text: number[];
  structured: number[];
}
const rows: Row[] = [];
async function measure(call: string, name: string, args: Record<string, unknown>) {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) throw new Error(`${call}: ${JSON.stringify(r.content)}`);
  const text = (r.content as { type: string; text?: string }[])
    .filter((b) => b.type === 'text')
    .reduce((n, b) => n + (b.text?.length ?? 0), 0);
  let row = rows.find((x) => x.call === call);
  if (!row) {
    row = { call, text: [], structured: [] };
    rows.push(row);
  }
  row.text.push(text);
  row.structured.push(JSON.stringify(r.structuredContent ?? {}).length);
  return r.structuredContent as Record<string, { id: string }>;
}

const superseding = data.entries.find((e) => e.tool === 'decide' && e.args.supersedes)?.key as string;
await measure('remember', 'remember', { content: 'storefront-api reads REDIS_URL from the bk/prod secret.' });
await measure('observe', 'observe', { content: 'p95 of GET /v1/slots is 140 ms after the index.', source: 'k6' });
await measure('decide', 'decide', { content: 'Keep Fastify 5.', rationale: 'the plugins we use all support it' });
await measure('note', 'note', { content: 'check the flaky slots test tomorrow' });
const plan = await measure('plan (create)', 'plan', {
  title: 'Cut over to the new slot service',
  steps: [{ text: 'dual write' }, { text: 'switch readers' }, { text: 'drop the old table' }],
});
await measure('plan (update)', 'plan', {
  id: plan.entry?.id,
  steps: [
    { text: 'dual write', status: 'done' },
    { text: 'switch readers', status: 'doing' },
    { text: 'drop the old table' },
  ],
});
for (const q of data.questions.filter((x) => x.project === project)) {
  await measure('recall (limit 10)', 'recall', { query: q.query });
}
const put = await measure('artifact_put', 'artifact_put', { name: 'k6-report.md', content: '# k6\n'.repeat(200) });
await measure('artifact_get', 'artifact_get', { id: put.artifact?.id });
for (const view of ['overview', 'projects', 'agents', 'ledger', 'brief']) {
  await measure(`space ${view}`, 'space', { view });
}
await measure('space history', 'space', { view: 'history', entry_id: idOf(superseding) });
await measure('forget', 'forget', { id: put.artifact?.id });

const listed = (await client.listTools()).tools;
const read = listed.reduce(
  (n, t) => n + t.name.length + (t.description?.length ?? 0) + JSON.stringify(t.inputSchema).length,
  0,
);
const whole = JSON.stringify({ tools: listed }).length;
await client.close();
await server.close();

const mean = (xs: number[]) => Math.round(xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length));
const cell = (xs: number[]) => (xs.length > 1 ? `${mean(xs)} (max ${Math.max(...xs)})` : `${xs[0]}`);
const md = [
  `Run ${new Date().toISOString().slice(0, 10)} on PGlite: CodeRecall dev org "${data.org}" (${data.entries.length} entries) replayed through the tools, then each call below made once as agent ${agent} in ${project} (recall: its ${rows.find((r) => r.call.startsWith('recall'))?.text.length} questions there). Text: the characters of the text blocks, what a client that reads \`content\` shows the model; structured: the JSON of structuredContent, which Claude Code and Codex hand the model instead (docs/design.md, "What the model reads"). Command: \`npm run bench:text\`.`,
  '',
  '| call | text chars | structured chars |',
  '|---|---|---|',
  ...rows.map((r) => `| ${r.call} | ${cell(r.text)} | ${cell(r.structured)} |`),
  '',
  `tools/list: ${read} characters the model reads (names, descriptions, input schemas), ${whole} in all.`,
].join('\n');
console.log(md);
writeBenchmarkSection('text', 'What each tool returns (npm run bench:text)', md);
process.exit(0);
