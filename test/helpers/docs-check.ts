/**
 * What test/docs.test.ts checks in a Markdown file: its relative links lead to files that exist,
 * its #anchors to headings (GitHub's slugs), each `npm run X` names a script of package.json, and
 * each repository path it names (in backticks, or bare with a file extension) exists.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';

/** The folders of the repository whose paths a doc names, as `src/…`, `sql/…`. */
const REPO_DIRS = ['src', 'sql', 'scripts', 'test', 'drizzle', 'bin', 'docs', 'bench', 'plugins', '.ci'];
const BARE_PATH = new RegExp(
  `(?<![\\w/.-])(?:${REPO_DIRS.map((d) => d.replace('.', '\\.')).join('|')})/[\\w./-]*\\.(?:ts|tsx|sql|js|mjs|json|c|md|yml|toml|sha256)\\b`,
  'g',
);

/** The text with fenced code blocks blanked (line count kept), and the blocks' text apart. */
export function splitFences(md: string): { prose: string; code: string } {
  const prose: string[] = [];
  const code: string[] = [];
  let fence: string | null = null;
  for (const line of md.split('\n')) {
    const open = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence === null && open) {
      fence = open;
      prose.push('');
    } else if (fence !== null) {
      if (line.trim().startsWith(fence)) fence = null;
      else code.push(line);
      prose.push('');
    } else prose.push(line);
  }
  return { prose: prose.join('\n'), code: code.join('\n') };
}

/** GitHub's anchor for a heading's text: lower case, punctuation dropped, each space a hyphen. */
export function slug(heading: string): string {
  return heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The headings' texts, outside code blocks. */
export function headings(md: string): string[] {
  const out: string[] = [];
  for (const line of splitFences(md).prose.split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (m?.[1]) out.push(m[1]);
  }
  return out;
}

/** Every anchor a file offers: its headings' slugs (a repeated one gets -1, -2, …) and <a id>s. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const h of headings(md)) {
    const base = slug(h);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n ? `${base}-${n}` : base);
  }
  for (const m of md.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) out.add(m[1] as string);
  return out;
}

const inlineCode = (prose: string) => [...prose.matchAll(/`([^`\n]+)`/g)].map((m) => m[1] as string);
const withoutCode = (prose: string) => prose.replace(/`[^`\n]+`/g, '``');

/** What a doc would need of the repository that is not there; `file` is relative to `root`. */
export function problemsOf(root: string, file: string, md: string, scripts: ReadonlySet<string>): string[] {
  const problems: string[] = [];
  const { prose, code } = splitFences(md);
  const here = dirname(join(root, file));

  // links: [text](target), outside code
  for (const m of withoutCode(prose).matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const target = m[1] as string;
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:: not checked offline
    const [path = '', anchor] = target.split('#');
    if (!path) {
      if (anchor !== undefined && !anchors(md).has(anchor))
        problems.push(`${file}: link to ${target}: no such heading`);
      continue;
    }
    const resolved = normalize(join(here, decodeURIComponent(path)));
    if (!resolved.startsWith(root) || !existsSync(resolved)) {
      problems.push(`${file}: link to ${target}: no such file`);
      continue;
    }
    if (anchor === undefined) continue;
    if (!resolved.endsWith('.md') || statSync(resolved).isDirectory()) {
      problems.push(`${file}: link to ${target}: an anchor into a file that is not Markdown`);
    } else if (!anchors(readFileSync(resolved, 'utf8')).has(anchor)) {
      problems.push(`${file}: link to ${target}: no heading ${relative(root, resolved)}#${anchor}`);
    }
  }

  // npm scripts, in prose and code alike
  for (const m of `${prose}\n${code}`.matchAll(/\bnpm\s+(?:run(?:-script)?\s+([\w:.-]+)|(start|test)\b)/g)) {
    const name = (m[1] ?? m[2]) as string;
    if (!scripts.has(name)) problems.push(`${file}: npm run ${name}: package.json has no such script`);
  }

  // repository paths: in backticks (a <placeholder> or * stops the check at the folder before it)
  const named = new Set<string>();
  for (const span of inlineCode(prose)) {
    const first = span.split(/\s/)[0] as string;
    if (!REPO_DIRS.some((d) => first.startsWith(`${d}/`))) continue;
    const fixed = first.split('/').filter((_, i, parts) => !parts.slice(0, i + 1).some((p) => /[<*{…]/.test(p)));
    named.add(fixed.join('/').replace(/[),.:;]+$/, ''));
  }
  // and bare, with a file extension, anywhere but a link's target (checked above)
  const unlinked = prose.replace(/\]\([^)]*\)/g, ']()');
  for (const m of `${unlinked}\n${code}`.matchAll(BARE_PATH)) named.add(m[0]);
  for (const path of named) {
    if (!existsSync(join(root, path))) problems.push(`${file}: ${path}: no such file or folder`);
  }
  return problems;
}

/**
 * References to a doc's sections written in code and docs as `docs/design.md, "Section"` (also
 * across comment lines) or `BENCHMARKS.md ("Section")`: the quoted text, per file.
 */
export function sectionReferences(text: string, doc: 'docs/design.md' | 'BENCHMARKS.md'): string[] {
  const flat = text.replace(/\n[ \t]*(?:\/\/+|\*|--|#)?[ \t]*/g, ' ');
  const name = doc.replace(/[./]/g, (c) => `\\${c}`);
  const re = new RegExp(`(?<![\\w/])${name}\\s*[,(]?\\s*"([^"]{2,80})"`, 'g');
  return [...flat.matchAll(re)].map((m) => (m[1] as string).trim());
}

/** Whether a reference names a heading: the heading itself, or its start up to a word's end. */
export function namesHeading(reference: string, heads: string[]): boolean {
  const ref = reference.replace(/[`*]/g, '');
  return heads
    .map((h) => h.replace(/[`*]/g, ''))
    .some((h) => h === ref || (h.startsWith(ref) && /^[\s(:,—-]/.test(h.slice(ref.length))));
}
