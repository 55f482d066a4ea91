/**
 * What the model reads stays small and portable (docs/design.md, "What the model reads"): on every
 * target and every protocol revision, tools/list keeps the model-read part (names, descriptions,
 * input schemas) within 9,000 characters and the whole result within 16,000, every input property
 * is described, and the MCP Inspector's strict mode finds nothing to warn about.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_KINDS, connect, rawPost } from '../helpers/clients';
import {
  LISTING_LIMIT,
  type ListedTool,
  MODEL_READ_LIMIT,
  portabilityFindings,
  runInspector,
  sizes,
  undescribed,
} from '../helpers/listing';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const REVISIONS = ['2025-03-26', '2025-06-18', '2025-11-25'];

/** Checks one tools/list result against the budgets and the rules; returns its sizes. */
function judge(result: { tools: ListedTool[] }, what: string) {
  expect(result.tools, what).toHaveLength(10);
  const s = sizes(result);
  expect(s.modelRead, `${what}: model-read characters`).toBeLessThanOrEqual(MODEL_READ_LIMIT);
  expect(s.whole, `${what}: tools/list characters`).toBeLessThanOrEqual(LISTING_LIMIT);
  for (const t of result.tools) {
    expect(undescribed(t.inputSchema), `${what}: ${t.name} properties without a description`).toEqual([]);
    const findings = [
      ...portabilityFindings(t.inputSchema, 'inputSchema'),
      ...portabilityFindings(t.outputSchema, 'outputSchema'),
    ];
    expect(findings, `${what}: ${t.name}`).toEqual([]);
  }
  return s;
}

describe.each(TARGETS)('tools/list on %s', (db) => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  it.each(REVISIONS)('on %s is within budget, described and portable', async (version) => {
    const res = await rawPost(
      t.mcpUrl,
      { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
      { 'X-Svc-Key': key, 'mcp-protocol-version': version },
    );
    const body = (await res.json()) as { result: { tools: ListedTool[] } };
    judge(body.result, version);
  });

  it.each(CLIENT_KINDS)('as the %s client reads it, the same', async (kind) => {
    const s = await connect(kind, t.mcpUrl, { key });
    try {
      judge({ tools: (await s.listTools()) as ListedTool[] }, `${kind} (${s.protocolVersion()})`);
    } finally {
      await s.close();
    }
  });

  it.each(['legacy', 'modern'] as const)('passes the MCP Inspector in strict mode (%s protocol era)', async (era) => {
    const run = await runInspector(t.mcpUrl, key, era);
    expect(run.tools).toHaveLength(10);
    expect(run.findings).toEqual([]);
  });
});
