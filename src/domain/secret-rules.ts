/**
 * The secrets Cairn refuses that secretlint's recommended preset has no rule for, written as
 * secretlint scanner rules so they run in the same pass: a Cairn API key, a Google API key (the
 * Gemini and Maps keys; the preset's GCP rule finds service-account files only), and a connection
 * string with a password for the schemes the preset's database rule leaves out (it covers
 * PostgreSQL, MySQL and MongoDB).
 */
import type { SecretLintRuleContext, SecretLintRuleCreator } from '@secretlint/types';

/** `svc_` + 32–128 base62 (src/auth/keys.ts), not inside a longer word. */
const CAIRN_KEY = /(?<![A-Za-z0-9_])svc_[0-9A-Za-z]{32,128}(?![0-9A-Za-z_])/g;
/** `AIza` + 35 characters of [A-Za-z0-9_-] (the gitleaks and GitHub secret-scanning pattern). */
const GOOGLE_API_KEY = /(?<![A-Za-z0-9_-])AIza[0-9A-Za-z_-]{35}(?![A-Za-z0-9_-])/g;
/** Schemes whose URLs carry a password the preset's database rule does not look at. */
const SCHEMES =
  'redis rediss amqp amqps mssql sqlserver clickhouse cockroachdb mariadb couchdb neo4j neo4j+s nats mqtt mqtts'.split(
    ' ',
  );
const LONGEST = Math.max(...SCHEMES.map((x) => x.length));
const SCHEME_CHAR = /[A-Za-z0-9+.-]/;

/** The scheme that ends at `at` (just before `://`), when it is one of SCHEMES and a whole word. */
function schemeBefore(text: string, at: number): string | undefined {
  const before = text.slice(Math.max(0, at - LONGEST - 1), at).toLowerCase();
  return SCHEMES.find((x) => before.endsWith(x) && !SCHEME_CHAR.test(before[before.length - x.length - 1] ?? ''));
}
/** user:password@host right after `://` (sticky: tried only there). */
const USER_PASSWORD = /(?<user>[^:/\s@]{0,100}):(?<password>[^@/\s]{1,200})@[^/\s?]{1,100}/y;

/** Connection strings with a password, found from each `://` rather than by a regex tried at every character. */
function* connectionStrings(text: string): Generator<[number, number]> {
  for (let at = text.indexOf('://'); at !== -1; at = text.indexOf('://', at + 3)) {
    const scheme = schemeBefore(text, at);
    if (scheme === undefined) continue;
    USER_PASSWORD.lastIndex = at + 3;
    const m = USER_PASSWORD.exec(text);
    if (m && !placeholder(m.groups?.user ?? '', m.groups?.password ?? '')) {
      yield [at - scheme.length, USER_PASSWORD.lastIndex];
    }
  }
}

/** A password that is a placeholder rather than a secret: a variable, a mask, a stock word. */
function placeholder(user: string, password: string): boolean {
  if (password.length < 4 || password === user) return true;
  if (/[$%{}<>*]|\.\.\./.test(password)) return true; // ${VAR}, %VAR%, {{x}}, <password>, ***
  if (/^(.)\1+$/.test(password)) return true; // xxxx
  return /^(?:password|passwd|pass|secret|changeme|example|redacted|your[-_]?password)$/i.test(password);
}

type Report = (ctx: SecretLintRuleContext, messageId: string, range: [number, number]) => void;
const report: Report = (ctx, messageId, range) => {
  ctx.report({ message: { message: `found ${messageId}`, messageId, data: {} }, range });
};

function scanner(id: string, messageId: string, find: (text: string) => Iterable<[number, number]>) {
  const rule: SecretLintRuleCreator = {
    messages: {},
    meta: { id, recommended: true, type: 'scanner', supportedContentTypes: ['text'] },
    create(context) {
      return {
        file(source) {
          for (const range of find(source.content)) report(context, messageId, range);
        },
      };
    },
  };
  return rule;
}

function* matches(re: RegExp, text: string): Generator<[number, number]> {
  for (const m of text.matchAll(re)) {
    const at = m.index ?? 0;
    yield [at, at + m[0].length];
  }
}

/** The rules, with the message ids the refusal names (secrets.ts). */
export const cairnRules: SecretLintRuleCreator[] = [
  scanner('cairn/api-key', 'CAIRN_API_KEY', (t) => matches(CAIRN_KEY, t)),
  scanner('cairn/google-api-key', 'GOOGLE_API_KEY', (t) => matches(GOOGLE_API_KEY, t)),
  scanner('cairn/connection-string', 'CONNECTION_STRING', connectionStrings),
];
