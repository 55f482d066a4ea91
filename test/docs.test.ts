/**
 * The docs say what is there: every relative link of README.md, BENCHMARKS.md and docs/*.md leads
 * to a file that exists and its #anchor to a heading; every `npm run X` is a script of
 * package.json; every repository path named exists; every `docs/design.md, "Section"` reference
 * in the code names a heading of design.md; and docs/configuration.md lists exactly the variables
 * src/config.ts reads, and those read elsewhere with the file that reads them.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config';
import { anchors, headings, namesHeading, problemsOf, sectionReferences, slug } from './helpers/docs-check';

const root = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const scripts = new Set(Object.keys(JSON.parse(read('package.json')).scripts as object));
const DOCS = ['README.md', 'BENCHMARKS.md', ...readdirSync(join(root, 'docs')).map((f) => `docs/${f}`)].filter((f) =>
  f.endsWith('.md'),
);

describe('docs', () => {
  it.each(DOCS)('%s: links, anchors, npm scripts and paths all exist', (file) => {
    expect(problemsOf(root, file, read(file), scripts)).toEqual([]);
  });

  it('finds what is broken (the checks can fail)', () => {
    const doc = [
      '# Set up',
      'See [the guide](docs/nowhere.md), [that part](README.md#no-such-heading),',
      '[this one](#set-up) and [config](docs/configuration.md#every-variable).',
      '`src/no/such.ts`, `sql/<area>/<function>.sql`, test/e2e/gone.test.ts, https://example.com/src/a.ts.',
      '```sh',
      'npm run no-such-script && npm test',
      '```',
    ].join('\n');
    expect(problemsOf(root, 'README.md', doc, scripts)).toEqual([
      'README.md: link to docs/nowhere.md: no such file',
      'README.md: link to README.md#no-such-heading: no heading README.md#no-such-heading',
      'README.md: npm run no-such-script: package.json has no such script',
      'README.md: src/no/such.ts: no such file or folder',
      'README.md: test/e2e/gone.test.ts: no such file or folder',
    ]);
  });

  it("makes GitHub's anchors", () => {
    expect(slug('All cores (`cairn serve --workers`)')).toBe('all-cores-cairn-serve---workers');
    expect(slug('Entries and tools — choices')).toBe('entries-and-tools--choices');
    expect(slug('CPU per call, one warm process (npm run bench:cpu)')).toBe(
      'cpu-per-call-one-warm-process-npm-run-benchcpu',
    );
    expect([...anchors('# A\n## A\n```\n# not a heading\n```\n## `B_c`')]).toEqual(['a', 'a-1', 'b_c']);
  });

  it('keeps every section of docs/design.md and BENCHMARKS.md that the code and docs name', () => {
    const files = execFileSync('git', ['ls-files', '-z'], { cwd: root, encoding: 'utf8' })
      .split('\0')
      // the release fixtures are old code; this test and its helper describe the form itself
      .filter((f) => f && !f.startsWith('test/fixtures/releases/') && existsSync(join(root, f)))
      .filter((f) => f !== 'test/docs.test.ts' && f !== 'test/helpers/docs-check.ts')
      .filter((f) => /\.(ts|tsx|js|mjs|sql|md|c|toml|yml)$/.test(f));
    const missing: string[] = [];
    let found = 0;
    for (const doc of ['docs/design.md', 'BENCHMARKS.md'] as const) {
      const heads = headings(read(doc));
      for (const file of files) {
        for (const ref of sectionReferences(read(file), doc)) {
          found++;
          if (!namesHeading(ref, heads)) missing.push(`${file}: ${doc}, "${ref}"`);
        }
      }
    }
    expect(found).toBeGreaterThan(80);
    expect(missing).toEqual([]);
  });
});

/** docs/configuration.md's table: each variable with the files that read it. */
function configTable(): Map<string, string[]> {
  const rows = new Map<string, string[]>();
  const doc = read('docs/configuration.md');
  const section = doc.slice(
    doc.indexOf('\n## Every variable\n'),
    doc.indexOf('\n## ', doc.indexOf('## Every variable') + 1),
  );
  for (const line of section.split('\n')) {
    const cells = line.split(/(?<!\\)\|/).map((c) => c.trim());
    if (cells.length < 5 || !/^`[A-Z]/.test(cells[1] as string)) continue;
    const readers = [...(cells[3] as string).matchAll(/`([^`]+)`/g)].map((m) => m[1] as string);
    for (const m of (cells[1] as string).matchAll(/`([A-Z][A-Z0-9_]*)`/g)) rows.set(m[1] as string, readers);
  }
  return rows;
}

/** The CAIRN_* variables the code reads, by file: env.X, process.env.X, vars.X, env['X']. */
function cairnReads(): Map<string, string[]> {
  const reads = new Map<string, string[]>();
  const walk = (dir: string): string[] =>
    readdirSync(join(root, dir), { withFileTypes: true }).flatMap((d) =>
      d.isDirectory() ? (d.name === 'fixtures' ? [] : walk(`${dir}/${d.name}`)) : [`${dir}/${d.name}`],
    );
  for (const file of ['src', 'scripts', 'test'].flatMap(walk).filter((f) => /\.tsx?$/.test(f))) {
    for (const m of read(file).matchAll(/\b(?:env|vars)(?:\.|\[['"])(CAIRN_[A-Z0-9_]+)/g)) {
      reads.set(m[1] as string, [...(reads.get(m[1] as string) ?? []), file]);
    }
  }
  return reads;
}

describe('docs/configuration.md', () => {
  const table = configTable();

  it('lists every variable src/config.ts reads, as read by src/config.ts', () => {
    expect(CONFIG_VARIABLES.length).toBeGreaterThan(25);
    const absent = CONFIG_VARIABLES.filter((v) => !table.get(v)?.includes('src/config.ts'));
    expect(absent).toEqual([]);
  });

  it('lists no variable that nothing reads: each is read by the files its row names', () => {
    expect(table.size).toBeGreaterThan(CONFIG_VARIABLES.length);
    const wrong: string[] = [];
    for (const [name, readers] of table) {
      if (readers.length === 0) wrong.push(`${name}: no file named as its reader`);
      for (const file of readers) {
        if (file === 'src/config.ts' && !CONFIG_VARIABLES.includes(name)) wrong.push(`${name}: not in config.ts`);
        else if (!existsSync(join(root, file)) || !read(file).includes(name)) wrong.push(`${name}: not in ${file}`);
      }
    }
    expect(wrong).toEqual([]);
  });

  it('lists every CAIRN_ variable the code reads outside config.ts', () => {
    const reads = cairnReads();
    expect(reads.get('CAIRN_URL')).toContain('src/agent/config.ts');
    const unlisted = [...reads.keys()].filter((v) => !table.has(v));
    expect(unlisted).toEqual([]);
  });
});
