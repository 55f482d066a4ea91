/**
 * Artifacts at the default size limit (5 MiB decoded, CAIRN_MAX_ARTIFACT_BYTES) and one byte over,
 * as text and as base64, inside the default request body limit (8 MiB), on Node (PGlite,
 * Postgres) and the Worker: stored whole at the limit, refused naming the field one byte over.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawPost, toolCall } from '../helpers/clients';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const LIMIT = 5 * 1024 * 1024;
const BODY_LIMIT = 8 * 1024 * 1024;

/** `n` bytes of every value, in a pattern that is not all one byte. */
const bytesOf = (n: number) => {
  const b = Buffer.alloc(n);
  for (let i = 0; i < n; i++) b[i] = (i * 7919 + (i >> 8)) & 0xff;
  return b;
};

describe.each(TARGETS)('artifacts at the size limit on %s', (db) => {
  let t: TestServer;
  let key: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    ({ key } = await t.createOrg('acme'));
  });
  afterAll(() => t?.close());

  /** artifact_put over raw HTTP: the body's size, and the tool result. */
  async function put(args: Record<string, unknown>) {
    const body = JSON.stringify(toolCall('artifact_put', args));
    const res = await rawPost(t.mcpUrl, body, { 'X-Svc-Key': key, 'X-Svc-Agent': 'uploader' });
    expect(res.status).toBe(200);
    const json = (await res.json()) as {
      result: { isError?: boolean; content: { text: string }[]; structuredContent: Record<string, unknown> };
    };
    return { bodyBytes: Buffer.byteLength(body), result: json.result, text: json.result.content[0]?.text ?? '' };
  }

  async function fetched(id: string): Promise<Buffer> {
    const res = await rawPost(t.mcpUrl, toolCall('artifact_get', { id }), { 'X-Svc-Key': key });
    const resource = (
      (await res.json()) as { result: { content: { resource?: { blob?: string; text?: string } }[] } }
    ).result.content.find((c) => c.resource)?.resource;
    return resource?.blob !== undefined ? Buffer.from(resource.blob, 'base64') : Buffer.from(resource?.text ?? '');
  }

  it('stores a base64 artifact of exactly the limit, within the body limit, and refuses one byte more', async () => {
    const bytes = bytesOf(LIMIT);
    const at = await put({ name: 'at-limit.bin', content_base64: bytes.toString('base64') });
    expect(at.bodyBytes).toBeLessThan(BODY_LIMIT);
    expect(at.result.isError, at.text).toBeFalsy();
    const artifact = at.result.structuredContent.artifact as { id: string; size: number; sha256: string };
    expect(artifact).toMatchObject({ size: LIMIT, sha256: createHash('sha256').update(bytes).digest('hex') });
    expect((await fetched(artifact.id)).equals(bytes)).toBe(true);

    const over = await put({ name: 'over-limit.bin', content_base64: bytesOf(LIMIT + 1).toString('base64') });
    expect(over.result.isError).toBe(true);
    expect(over.text).toMatch(/content_base64: the artifact is 5242881 bytes; the limit is 5242880 bytes/);
  });

  it('measures text in UTF-8 bytes: exactly the limit is stored, one byte more refused', async () => {
    const text = `${'é'.repeat(LIMIT / 2 - 1)}ab`; // 5,242,880 bytes in 2,621,441 characters
    const at = await put({ name: 'at-limit.txt', content: text });
    expect(at.result.isError, at.text).toBeFalsy();
    const artifact = at.result.structuredContent.artifact as { id: string; size: number };
    expect(artifact.size).toBe(LIMIT);
    expect((await fetched(artifact.id)).toString('utf8')).toBe(text);

    const over = await put({ name: 'over-limit.txt', content: `${text}c` });
    expect(over.result.isError).toBe(true);
    expect(over.text).toMatch(/content: the artifact is 5242881 bytes; the limit is 5242880 bytes/);
  });
});
