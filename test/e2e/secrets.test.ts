/**
 * Secrets never become memory: each write tool refuses a text that holds a credential with a tool
 * error naming the field and the kind, never the secret, and stores nothing — recall finds
 * nothing, no artifact by that name, no ledger event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, entryId, type McpSession } from '../helpers/clients';
import { SECRETS } from '../helpers/secret-samples';
import { startTestServer, TARGETS, type TestServer } from '../helpers/server';

const secret = (kind: string) => SECRETS.find((s) => s.kind === kind)?.secret as string;
const AWS = secret('an AWS access key');
const PG = secret('a PostgreSQL connection string with a password');
const CAIRN = secret('a Cairn API key');
const PEM = secret('a private key block');
const GITHUB = secret('a GitHub token');
/** A word only the refused writes hold: recall for it must find nothing. */
const MARK = 'quokkaledger';

describe.each(TARGETS)('secrets refused on %s', (db) => {
  let t: TestServer;
  let s: McpSession;
  let planId: string;

  beforeAll(async () => {
    t = await startTestServer(db);
    const { key } = await t.createOrg('acme');
    s = await connect('v2', t.mcpUrl, { key, agent: 'tester', project: 'github.com/acme/app' });
    planId = entryId(await s.call('plan', { title: 'Ship the release', steps: [{ text: 'tag it', status: 'todo' }] }));
  }, 120_000);
  afterAll(async () => {
    await s?.close();
    await t?.close();
  });

  const cases: [string, Record<string, unknown>, string, string][] = [
    ['remember', { content: `${MARK}: the deploy key is ${AWS}` }, 'content', 'an AWS access key'],
    ['remember', { content: `${MARK} tagged`, tags: [GITHUB] }, 'tags.0', 'a GitHub token'],
    [
      'observe',
      { content: `${MARK} build failed`, source: `curl -H "Authorization: token ${GITHUB}"` },
      'source',
      'a GitHub token',
    ],
    [
      'decide',
      { content: `${MARK}: use Postgres`, rationale: `prod is ${PG}` },
      'rationale',
      'a PostgreSQL connection string with a password',
    ],
    ['note', { content: `${MARK} scratch`, metadata: { env: { key: CAIRN } } }, 'metadata.env.key', 'a Cairn API key'],
    [
      'plan',
      { title: `${MARK} rotate keys`, steps: [{ text: 'list them' }, { text: `revoke ${CAIRN}` }] },
      'steps.1.text',
      'a Cairn API key',
    ],
    ['artifact_put', { name: `${MARK}.pem`, content: PEM }, 'content', 'a private key block'],
    [
      'artifact_put',
      { name: `${MARK}.env`, content_base64: btoa(`KEY=${AWS}\n`) },
      'content_base64',
      'an AWS access key',
    ],
  ];

  it.each(cases)('%s %#: refused naming %s and the kind, never the secret', async (tool, args, field, kind) => {
    const r = await s.call(tool, args);
    expect(r.isError).toBe(true);
    expect(r.text).toContain(`${field}: holds what looks like ${kind}; secrets are never stored`);
    for (const value of [AWS, PG, CAIRN, GITHUB, ...PEM.split('\n')]) expect(r.text).not.toContain(value);
  });

  it('refuses an update of a plan whose new title holds a secret, and the plan is unchanged', async () => {
    const r = await s.call('plan', { id: planId, title: `Ship with ${GITHUB}` });
    expect(r.isError).toBe(true);
    expect(r.text).toContain('title: holds what looks like a GitHub token');
    const h = await s.call('space', { view: 'history', entry_id: planId });
    expect(JSON.stringify(h.structured)).not.toContain(GITHUB);
    const found = (await s.call('recall', { query: 'Ship the release' })).structured.hits as {
      id: string;
      version: number;
    }[];
    expect(found.find((x) => x.id === planId)?.version).toBe(1);
  });

  it('stored nothing: recall finds none of it, no artifact, no ledger event but the plan and the key', async () => {
    const hits = (await s.call('recall', { query: MARK, scope: 'org' })).structured.hits as unknown[];
    expect(hits).toEqual([]);
    const all = (await s.call('recall', { query: '', limit: 100, scope: 'org' })).structured.hits as { id: string }[];
    expect(all.map((h) => h.id)).toEqual([planId]);
    for (const name of [`${MARK}.pem`, `${MARK}.env`]) {
      expect((await s.call('artifact_get', { name })).isError).toBe(true);
    }
    const ledger = await s.call('space', { view: 'ledger' });
    expect((ledger.structured.events as { op: string }[]).map((e) => e.op)).toEqual(['plan.create', 'key.create']);
  });

  it('still takes a write that only names where a secret lives', async () => {
    const r = await s.call('remember', { content: 'The deploy key is in AWS_ACCESS_KEY_ID (1Password vault "ci").' });
    expect(r.isError).toBe(false);
  });
});
