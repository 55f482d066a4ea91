/** The secrets check: what it finds, where, what it says, and what it leaves alone. */
import { secretLintProfiler } from '@secretlint/profiler';
import { describe, expect, it } from 'vitest';
import { Invalid } from '../../src/domain/errors';
import { artifactFields, entryFields, findSecret, refuseSecrets, SECRET_RULES } from '../../src/domain/secrets';
import { NOT_SECRETS, SECRETS } from '../helpers/secret-samples';

describe('findSecret', () => {
  it.each(SECRETS)('finds $kind inside ordinary text', async ({ kind, secret }) => {
    const text = `Deploy notes for the staging cluster.\nUse ${secret} for now.\nThen restart the workers.`;
    expect(await findSecret(entryFields({ content: text }))).toEqual({ field: 'content', kind });
  });

  it.each(NOT_SECRETS)('leaves alone: %s', async (text) => {
    expect(await findSecret(entryFields({ content: text }))).toBeNull();
  });

  it('names the field the secret is in, among every text of a write', async () => {
    const [key, token] = [SECRETS[0]?.secret as string, SECRETS[7]?.secret as string];
    const fields = (extra: Parameters<typeof entryFields>[0]) =>
      entryFields({ content: 'fine', rationale: 'fine', source: 'ci', title: 'fine', tags: ['a'], ...extra });
    expect(await findSecret(fields({ rationale: `because ${key}` }))).toMatchObject({ field: 'rationale' });
    expect(await findSecret(fields({ source: token }))).toMatchObject({ field: 'source' });
    expect(await findSecret(fields({ title: token }))).toMatchObject({ field: 'title' });
    expect(await findSecret(fields({ steps: [{ text: 'a' }, { text: `export ${key}` }] }))).toMatchObject({
      field: 'steps.1.text',
    });
    expect(await findSecret(fields({ tags: ['ok', token] }))).toMatchObject({ field: 'tags.1' });
    const metadata = { ci: { env: ['PLAIN=1', `TOKEN=${token}`] }, n: 3, ok: true };
    expect(await findSecret(fields({ metadata }))).toEqual({ field: 'metadata.ci.env.1', kind: 'a GitHub token' });
    expect(await findSecret(fields({}))).toBeNull();
  });

  it('does not match across two fields', async () => {
    // each half alone is harmless; joined they would read as an AWS access key
    expect(await findSecret(entryFields({ content: 'AKIA', rationale: 'Z7QW3R5T6Y8U9I0P' }))).toBeNull();
  });

  it('takes no secretlint-disable comment from the text', async () => {
    const secret = SECRETS[7]?.secret as string;
    const text = `// secretlint-disable\n${secret}\n// secretlint-enable`;
    expect(await findSecret(entryFields({ content: text }))).toMatchObject({ kind: 'a GitHub token' });
  });

  it("scans an artifact's UTF-8 bytes as the field they came in, not bytes that are not text", async () => {
    const secret = SECRETS[0]?.secret as string;
    const bytes = new TextEncoder().encode(`key: ${secret}`);
    expect(await findSecret(artifactFields({ name: 'a.txt', bytes, from: 'content_base64' }))).toMatchObject({
      field: 'content_base64',
    });
    const binary = new Uint8Array([0xff, 0xfe, ...bytes]);
    expect(await findSecret(artifactFields({ name: 'a.bin', bytes: binary, from: 'content_base64' }))).toBeNull();
    expect(await findSecret(artifactFields({ name: secret, bytes: binary, from: 'content' }))).toMatchObject({
      field: 'name',
    });
  });

  it('leaves no performance marks behind: a server scans for as long as it runs', async () => {
    await findSecret(entryFields({ content: 'a text, scanned' }));
    expect(secretLintProfiler.isEnabled).toBe(false);
    expect(performance.getEntriesByType('mark').filter((m) => m.name.startsWith('@core'))).toEqual([]);
  });

  it('runs the preset rules and Cairn’s own, without the comment filter', () => {
    expect(SECRET_RULES).toContain('@secretlint/secretlint-rule-aws');
    expect(SECRET_RULES).toContain('@secretlint/secretlint-rule-privatekey');
    expect(SECRET_RULES).toContain('cairn/api-key');
    expect(SECRET_RULES).not.toContain('@secretlint/secretlint-rule-filter-comments');
  });
});

describe('refuseSecrets', () => {
  it('throws Invalid naming the field and the kind, without the secret', async () => {
    const secret = SECRETS[0]?.secret as string;
    const err = await refuseSecrets(entryFields({ content: `the key is ${secret}` })).catch((e) => e);
    expect(err).toBeInstanceOf(Invalid);
    expect(err.field).toBe('content');
    expect(err.message).toBe(
      "content: holds what looks like an AWS access key; secrets are never stored — remove it (keep a reference such as the variable's name instead) and write again",
    );
    expect(err.message).not.toContain(secret);
    await expect(refuseSecrets(entryFields({ content: 'nothing secret here' }))).resolves.toBeUndefined();
  });
});
