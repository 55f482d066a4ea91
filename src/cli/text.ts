/**
 * What the `cairn` command prints without `--json`: a sentence or a table per result, for a person
 * at a terminal (with `--json` it prints the result as one JSON object instead).
 */
import { nameText } from '../domain/agents';
import type { ApiKeyInfo } from '../domain/types';
import { count } from '../domain/words';

/** One key as `key list` and `key revoke` show it. */
function keyLine(k: ApiKeyInfo): string {
  const state = k.revoked_at ? `revoked ${k.revoked_at.slice(0, 10)}` : 'active';
  const bound = k.agent ? `, bound to ${nameText(k.agent)}` : '';
  const used = k.last_used_at ? `last used ${k.last_used_at.slice(0, 10)}` : 'never used';
  return `${k.id}  ${k.prefix}…  "${k.name}"${bound}  by ${k.created_by} ${k.created_at.slice(0, 10)}, ${used}, ${state}`;
}

/** `org list`, `key list`: one line each, or null for another result. */
function listText(r: Record<string, unknown>): string | null {
  if (Array.isArray(r.keys)) {
    const keys = r.keys as ApiKeyInfo[];
    return keys.length ? [`${count(keys.length, 'key')}:`, ...keys.map(keyLine)].join('\n') : 'No keys.';
  }
  if (Array.isArray(r.orgs) && r.orgs.every((o) => typeof (o as { name?: unknown }).name === 'string')) {
    const orgs = r.orgs as { id: string; name: string }[];
    return orgs.length
      ? [`${count(orgs.length, 'org')}:`, ...orgs.map((o) => `${o.id}  ${o.name}`)].join('\n')
      : 'No orgs.';
  }
  return null;
}

/** Any other result as indented `name: value` lines (lists item by item), never as JSON. */
function plainText(v: unknown, indent = ''): string {
  if (Array.isArray(v)) {
    if (v.length === 0) return `${indent}(none)`;
    return v
      .map((x) =>
        typeof x === 'object' && x !== null ? `${indent}-\n${plainText(x, `${indent}  `)}` : `${indent}- ${x}`,
      )
      .join('\n');
  }
  if (typeof v === 'object' && v !== null) {
    return Object.entries(v)
      .map(([k, x]) =>
        typeof x === 'object' && x !== null ? `${indent}${k}:\n${plainText(x, `${indent}  `)}` : `${indent}${k}: ${x}`,
      )
      .join('\n');
  }
  return `${indent}${String(v)}`;
}

/** Prints a command's result for a person: stdout, but an export's counts and head on stderr (the file may be on stdout). */
export function printHuman(result: unknown): void {
  const r = result as Record<string, unknown>;
  const key = r.key as { secret?: string; id: string } | undefined;
  if (r.org && key?.secret) {
    const org = r.org as { id: string; name: string };
    console.log(`Created org "${org.name}" (${org.id}).\nAPI key (shown once): ${key.secret}`);
  } else if (key?.secret) {
    const bound = (key as { agent?: string | null }).agent;
    console.log(
      `Created key ${key.id}${bound ? `, bound to agent ${nameText(bound)}: it acts as that agent only (no X-Svc-Agent needed; another is refused)` : ''}.\nAPI key (shown once): ${key.secret}`,
    );
  } else if (key && !key.secret) {
    console.log(keyLine(key as unknown as ApiKeyInfo));
  } else if (r.user) {
    const user = r.user as { email: string; org_id: string; created: boolean };
    console.log(
      `${user.created ? 'Created the account' : 'The existing account'} ${user.email} owns org ${user.org_id}; sign in at /dashboard.`,
    );
    if (typeof r.password === 'string') console.log(`Password (shown once): ${r.password}`);
  } else if (r.migrated) {
    const m = r.migrations as string[];
    const f = r.functions as string[];
    console.log(
      m.length || f.length
        ? `Migrated: ${count(m.length, 'versioned migration')}${m.length ? ` (${m.join(', ')})` : ''}, ${count(f.length, 'function file')}.`
        : 'The database was up to date: nothing to apply.',
    );
    if (typeof r.semantic_recall === 'string') console.log(`Semantic recall: ${r.semantic_recall}.`);
  } else if ('broken_at' in r) {
    const sealed = r.sealed
      ? ` (${r.sealed} of them private, sealed: their links checked, their content not in the export)`
      : '';
    const entry = r.entry as { part: string; id: string; line: number; problem: string } | undefined;
    console.log(
      r.ok
        ? `Ledger verified: ${count(r.events as number, 'event')}${sealed}, chain intact.`
        : entry
          ? `Export BROKEN: ${entry.part} ${entry.id} (line ${entry.line}): ${entry.problem}. The chain's ${r.events} events hold, but the file was changed.`
          : `Ledger BROKEN at seq ${r.broken_at} (after ${r.events} good events).`,
    );
  } else if (r.exported) {
    const c = r.exported as Record<string, number>;
    const head = r.head as { seq: number; hash: string } | null;
    console.error(
      `Exported ${c.entry} entries, ${c.version} plan versions, ${c.artifact} artifacts, ${c.project} projects, ${c.event} ledger events${r.out ? ` to ${r.out}` : ''}.`,
    );
    // on stderr, like the rest: the file may be on stdout
    if (head)
      console.error(
        `Ledger head: ${head.hash} (seq ${head.seq}); cairn import --expect-head ${head.hash} checks the file ends there.`,
      );
  } else if (r.imported) {
    const c = r.imported as Record<string, number>;
    console.log(
      `Imported into org ${(r.org as { id: string }).id}: ${c.entry} entries, ${c.version} plan versions, ${c.artifact} artifacts, ${c.project} projects, ${c.event} ledger events (cairn ledger verify --org checks the chain).`,
    );
  } else {
    console.log(listText(r) ?? plainText(result));
  }
}
