/**
 * Secrets never become memory: every text a write would store is scanned, in one pass, by
 * secretlint's recommended preset (a maintained rule set: cloud and AI provider keys, tokens of
 * well-known formats, private key blocks, connection strings with a password) plus Cairn's own
 * rules (secret-rules.ts). A hit refuses the write as an invalid argument naming the field and the
 * kind of secret, never the secret itself; nothing is stored. The rules are plain regular
 * expressions run synchronously, with no file system, so the same check runs on Node and Workers.
 */
import { lintSource } from '@secretlint/core';
import { secretLintProfiler } from '@secretlint/profiler';
import { rules as recommended } from '@secretlint/secretlint-rule-preset-recommend';
import type { SecretLintCoreConfig, SecretLintCoreConfigRule } from '@secretlint/types';
import { Invalid } from './errors';
import { cairnRules } from './secret-rules';

// secretlint marks performance entries per rule and file unless told not to; a server keeps none
secretLintProfiler.setEnabled(false);

/**
 * The preset's rules, registered one by one rather than through the preset: secretlint's core
 * honours `disabled` only on a top-level rule, and the comment filter must not run (a
 * `secretlint-disable` comment in a write would let a secret through).
 */
const SKIPPED = '@secretlint/secretlint-rule-filter-comments';
/** Per rule: AKIA… access key ids too (off by default in the preset); an account id is not a secret. */
const TUNED: Record<string, Omit<SecretLintCoreConfigRule, 'id' | 'rule'>> = {
  '@secretlint/secretlint-rule-aws': { options: { enableIDScanRule: true }, allowMessageIds: ['AWSAccountID'] },
};

const CONFIG: SecretLintCoreConfig = {
  rules: [...recommended.filter((rule) => rule.meta.id !== SKIPPED), ...cairnRules].map((rule) => ({
    id: rule.meta.id,
    rule,
    ...TUNED[rule.meta.id],
  })),
};

/** The ids of the rules a write passes through (docs/design.md lists them). */
export const SECRET_RULES = CONFIG.rules.map((r) => r.id);

/** What the refusal calls each finding (secretlint's message ids and Cairn's). */
const KINDS: Record<string, string> = {
  AWSAccessKeyID: 'an AWS access key',
  AWSSecretAccessKey: 'an AWS secret access key',
  PrivateKeyJSON: 'a Google Cloud service account key',
  PrivateKeyP12: 'a Google Cloud service account key',
  PrivateKey: 'a private key block',
  PackageJSON_xOauthToken: 'a GitHub token in a URL',
  Npmrc_authToken: 'an npm auth token',
  NPM_ACCESS_TOKEN: 'an npm access token',
  BasicAuth: 'a URL with a user name and password',
  SLACK_TOKEN: 'a Slack token',
  IncomingWebhook: 'a Slack incoming webhook URL',
  SENDGRID_KEY: 'a SendGrid API key',
  SHOPIFY_KEY: 'a Shopify access token',
  GITHUB_TOKEN: 'a GitHub token',
  GITLAB_PERSONAL_ACCESS_TOKEN: 'a GitLab access token',
  OPENAI_TOKEN: 'an OpenAI API key',
  ANTHROPIC_API_KEY: 'an Anthropic API key',
  GROQ_API_KEY: 'a Groq API key',
  HUGGINGFACE_USER_ACCESS_TOKEN: 'a Hugging Face access token',
  LINEAR_API_TOKEN: 'a Linear API key',
  NOTION_INTEGRATION_TOKEN: 'a Notion integration token',
  OPS_TOKEN: 'a 1Password service account token',
  MongoDBConnection: 'a MongoDB connection string with a password',
  MySQLConnection: 'a MySQL connection string with a password',
  PostgreSQLConnection: 'a PostgreSQL connection string with a password',
  DATABRICKS_PERSONAL_ACCESS_TOKEN: 'a Databricks access token',
  DOCKER_PERSONAL_ACCESS_TOKEN: 'a Docker access token',
  FIGMA_PERSONAL_ACCESS_TOKEN: 'a Figma access token',
  CAIRN_API_KEY: 'a Cairn API key',
  GOOGLE_API_KEY: 'a Google API key',
  CONNECTION_STRING: 'a connection string with a password',
};
/** Message ids of one family share a kind: STRIPE_SECRET_KEY_LIVE → a Stripe key. */
const FAMILIES: [RegExp, string][] = [
  [/^STRIPE_/, 'a Stripe secret key'],
  [/^GRAFANA_/, 'a Grafana token'],
  [/^HASHICORP_VAULT_/, 'a HashiCorp Vault token'],
  [/^VERCEL_/, 'a Vercel token'],
  [/^CLOUDFLARE_/, 'a Cloudflare API key'],
  [/^TAILSCALE_/, 'a Tailscale key'],
];

export function kindOf(messageId: string | undefined): string {
  if (messageId && KINDS[messageId]) return KINDS[messageId];
  return FAMILIES.find(([re]) => re.test(messageId ?? ''))?.[1] ?? 'a credential';
}

/** One text a write would store, and the argument it came in (`content`, `steps.2.text`, `metadata.env`). */
export interface TextField {
  field: string;
  text: string;
}

/** Between fields: a NUL, which no stored text field may hold, so no rule matches across two. */
const SEP = '\n\u0000\n';

/** The first secret in the fields, by field and kind; null when there is none. */
export async function findSecret(fields: TextField[]): Promise<{ field: string; kind: string } | null> {
  const present = fields.filter((f) => f.text.length > 0);
  if (present.length === 0) return null;
  const starts: number[] = [];
  let at = 0;
  for (const f of present) {
    starts.push(at);
    at += f.text.length + SEP.length;
  }
  const content = present.map((f) => f.text).join(SEP);
  // a plain text file: not package.json, whose x-oauth-basic check backtracks 256 characters at
  // every `http` (a 40-hex token in such a URL is still a URL with a user name and password)
  const result = await lintSource({
    source: { content, filePath: 'memory.txt', ext: '.txt', contentType: 'text' },
    options: { config: CONFIG, noPhysicFilePath: true, maskSecrets: true },
  });
  const first = result.messages.toSorted((a, b) => a.range[0] - b.range[0])[0];
  if (!first) return null;
  let i = starts.length - 1;
  while (i > 0 && (starts[i] as number) > first.range[0]) i--;
  return { field: (present[i] as TextField).field, kind: kindOf(first.messageId) };
}

/** Refuses a write that holds a secret: Invalid naming the field and the kind, never the secret. */
export async function refuseSecrets(fields: TextField[]): Promise<void> {
  const found = await findSecret(fields);
  if (found) {
    throw new Invalid(
      found.field,
      `holds what looks like ${found.kind}; secrets are never stored — remove it (keep a reference such as the variable's name instead) and write again`,
    );
  }
}

/** What an entry write stores as text, field by field (remember, observe, decide, note, plan). */
export interface EntryTexts {
  content?: string | undefined;
  rationale?: string | undefined;
  source?: string | undefined;
  title?: string | undefined;
  steps?: { text: string }[] | undefined;
  tags?: string[] | undefined;
  metadata?: unknown;
}

/** The texts of an entry write: its text fields, step texts, tags and the strings inside metadata. */
export function entryFields(input: EntryTexts): TextField[] {
  const out: TextField[] = [];
  for (const field of ['content', 'rationale', 'source', 'title'] as const) {
    const text = input[field];
    if (text !== undefined) out.push({ field, text });
  }
  for (const [i, s] of (input.steps ?? []).entries()) out.push({ field: `steps.${i}.text`, text: s.text });
  for (const [i, text] of (input.tags ?? []).entries()) out.push({ field: `tags.${i}`, text });
  walk(input.metadata, 'metadata', out, 0);
  return out;
}

/**
 * The texts of an artifact: its name, its metadata, and its bytes when they are UTF-8 text —
 * sent as `content` or as `content_base64` alike (bytes that are not UTF-8 are not scanned).
 */
export function artifactFields(input: {
  name: string;
  bytes: Uint8Array;
  from: string;
  metadata?: unknown;
}): TextField[] {
  const out: TextField[] = [{ field: 'name', text: input.name }];
  const text = utf8(input.bytes);
  if (text !== null) out.push({ field: input.from, text });
  walk(input.metadata, 'metadata', out, 0);
  return out;
}

function utf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    return null;
  }
}

function walk(v: unknown, path: string, out: TextField[], depth: number): void {
  if (depth > 32) return; // the schema refuses deeper metadata
  if (typeof v === 'string') {
    out.push({ field: path, text: v });
  } else if (Array.isArray(v)) {
    for (const [i, x] of v.entries()) walk(x, `${path}.${i}`, out, depth + 1);
  } else if (v && typeof v === 'object') {
    for (const [k, x] of Object.entries(v)) walk(x, `${path}.${k}`, out, depth + 1);
  }
}
