/**
 * Made-up secrets of each kind the secrets check refuses, and texts that only look close to one.
 * Each secret is assembled at run time from a prefix and a fixed pseudo-random body, so that this
 * file holds no string a secret scanner would flag, and the same samples come back every run.
 */
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** `n` characters of `alphabet`, the same for the same seed. */
export function filler(n: number, seed: number, alphabet = BASE62): string {
  let x = seed >>> 0 || 1;
  let out = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1_103_515_245) + 12_345) >>> 0;
    out += alphabet[(x >>> 8) % alphabet.length];
  }
  return out;
}

const UPPER = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const b64 = `${BASE62}+/`;
const pem = (label: string) =>
  [
    `-----BEGIN ${label}-----`,
    `MII${filler(61, 7, b64)}`,
    filler(64, 8, b64),
    filler(40, 9, b64),
    `-----END ${label}-----`,
  ].join('\n');

/** The secret alone, and the kind the refusal names. */
export interface Sample {
  kind: string;
  secret: string;
}

export const SECRETS: Sample[] = [
  { kind: 'an AWS access key', secret: `AKIA${filler(16, 1, UPPER)}` },
  { kind: 'an AWS secret access key', secret: `AWS_SECRET_ACCESS_KEY=${filler(40, 2)}` },
  { kind: 'a private key block', secret: pem('RSA PRIVATE KEY') },
  { kind: 'a private key block', secret: pem('OPENSSH PRIVATE KEY').replace('MII', 'b3BlbnNzaC1rZXktdjE') },
  { kind: 'an OpenAI API key', secret: `sk-proj-${filler(74, 3)}T3BlbkFJ${filler(74, 4)}` },
  { kind: 'an Anthropic API key', secret: `sk-ant-api03-${filler(93, 5)}AA` },
  { kind: 'a Google API key', secret: `AIza${filler(35, 6)}` },
  { kind: 'a GitHub token', secret: `ghp_${filler(36, 10)}` },
  { kind: 'a Slack token', secret: `xoxb-${filler(11, 11, '0123456789')}-${filler(24, 12)}` },
  { kind: 'a Stripe secret key', secret: `sk_live_${filler(24, 13)}` },
  { kind: 'an npm access token', secret: `npm_${filler(36, 14)}` },
  {
    kind: 'a PostgreSQL connection string with a password',
    secret: `postgres://app:${filler(16, 15)}@db.internal:5432/app`,
  },
  {
    kind: 'a MongoDB connection string with a password',
    secret: `mongodb+srv://svc:${filler(16, 16)}@cluster0.mongo.net/db`,
  },
  { kind: 'a connection string with a password', secret: `redis://:${filler(16, 17)}@cache.internal:6379/0` },
  { kind: 'a URL with a user name and password', secret: `https://deploy:${filler(16, 18)}@ci.internal.dev/hook` },
  {
    kind: 'a URL with a user name and password',
    secret: `https://${filler(40, 20, '0123456789abcdef')}:x-oauth-basic@github.com/acme/app.git`,
  },
  { kind: 'a Cairn API key', secret: `svc_${filler(40, 19)}` },
];

/** Texts near a secret that are not one: placeholders, examples, references, identifiers. */
export const NOT_SECRETS: string[] = [
  'DATABASE_URL=postgres://app:$PGPASSWORD@db.internal:5432/app',
  'DATABASE_URL=postgres://app:%PGPASSWORD%@db.internal:5432/app',
  'connect with postgres://postgres@localhost:5432/cairn (no password locally)',
  'REDIS_URL=redis://localhost:6379/0; in CI redis://:<password>@cache:6379',
  "AWS docs' example key AKIAIOSFODNN7EXAMPLE is not a real one",
  'aws_account_id: 1234-5678-9012, region eu-west-1',
  'The OpenAI key lives in OPENAI_API_KEY (1Password, vault "ci"); never paste it',
  'keys look like svc_ and 40 base62 characters; the prefix svc_abc is shown in the dashboard',
  '-----BEGIN PRIVATE KEY-----\n...your key here...\n-----END PRIVATE KEY-----',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8, entry 01900000-0000-7000-8000-000000000000',
  'sha256 e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
];
