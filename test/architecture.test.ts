/**
 * The layers hold (docs/design.md, "Layers"): src/domain imports none of the outer layers; the
 * parts stay apart (src/node, the Node runtime, is imported by itself and the server-side command
 * src/cli only, which nothing imports, and the Worker's entry loads neither; src/operator, shared by
 * both runtimes, imports no runtime and no outer layer); and no import cycle runs through src,
 * neither between files nor between its folders (each first-level folder, and each top-level file,
 * is one node: src/domain, src/mcp, src/config.ts). And no file of src grows past 400 lines.
 *
 * Type-only imports count: `import type` is erased from the JavaScript, but it still ties the
 * importer to the other layer's definitions, so a change there breaks the importer's build, and
 * the type's owner is then in the wrong layer.
 */
import { readFileSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  type Cycle,
  cycles,
  type ImportEdge,
  importGraph,
  reachable,
  sourceFiles,
  specifiers,
} from './helpers/import-graph';

const root = fileURLToPath(new URL('..', import.meta.url));
const edges = importGraph(root, 'src');
const local = edges.filter((e) => e.local);

/** What the domain may not import: the outer layers of this service, and the frameworks. */
const OUTSIDE_DOMAIN = ['src/mcp/', 'src/http/', 'src/oauth/', 'src/dashboard/', 'src/storage/'];
const MAX_LINES = 400;
/**
 * What src/agent (the commands run beside an agent, on every hook) may import besides itself and
 * Node's built-ins: pure modules that import nothing. It never loads the server, storage,
 * dashboard or a database driver, and only the `cairn` entry (bin/cairn.js) loads it.
 */
const AGENT_MAY_IMPORT = ['src/domain/terms.ts', 'src/domain/vocabulary.ts'];
/**
 * What src/operator (the operator's actions, export and import: the CLI, /admin and the dashboard
 * use them, on Node and on Workers) may not import: a runtime or an entry, the outer layers that
 * serve it, or storage (it reaches the database through the domain's ports).
 */
const OUTSIDE_OPERATOR = [
  'src/node/',
  'src/cli/',
  'src/agent/',
  'src/app.ts',
  'src/worker.ts',
  'src/http/',
  'src/dashboard/',
  'src/oauth/',
  'src/mcp/',
  'src/storage/',
];
const FRAMEWORKS = /^(hono|@hono\/|@modelcontextprotocol\/|drizzle-orm|pg$|@neondatabase\/|@electric-sql\/)/;

/** src/domain/ports.ts → domain; src/config.ts → config.ts. */
const folderOf = (file: string) => file.split('/')[1] as string;
const show = (e: ImportEdge) => `${e.from} imports ${e.to}`;
/** A cycle's path, and the rest of its knot when there is more to it than this path. */
const describeCycle = ({ nodes, path }: Cycle) => {
  const others = nodes.filter((n) => !path.includes(n));
  return `${path.join(' → ')}${others.length ? ` (knotted with ${others.join(', ')})` : ''}`;
};

describe('architecture', () => {
  it('reads the imports of every file in src', () => {
    expect(new Set(edges.map((e) => e.from)).size).toBeGreaterThan(50);
    expect(local.some((e) => e.from === 'src/app.ts' && e.to === 'src/domain/ports.ts')).toBe(true);
  });

  it('keeps src/domain free of the outer layers and of the frameworks', () => {
    const fromDomain = edges.filter((e) => e.from.startsWith('src/domain/'));
    const forbidden = fromDomain.filter((e) =>
      e.local ? OUTSIDE_DOMAIN.some((layer) => e.to.startsWith(layer)) : FRAMEWORKS.test(e.to),
    );
    expect(forbidden.map(show)).toEqual([]);
  });

  it('keeps src/agent apart: it imports itself, node: built-ins and a short list of pure modules, and src does not import it', () => {
    const fromAgent = edges.filter((e) => e.from.startsWith('src/agent/'));
    expect(fromAgent.length).toBeGreaterThan(10);
    const outside = fromAgent.filter((e) =>
      e.local ? !e.to.startsWith('src/agent/') && !AGENT_MAY_IMPORT.includes(e.to) : !e.to.startsWith('node:'),
    );
    expect(outside.map(show)).toEqual([]);
    expect(edges.filter((e) => AGENT_MAY_IMPORT.includes(e.from)).map(show)).toEqual([]);
    const intoAgent = local.filter((e) => e.to.startsWith('src/agent/') && !e.from.startsWith('src/agent/'));
    expect(intoAgent.map(show)).toEqual([]);
    // what the command loads for them, built: test/agent/cli.test.ts
  });

  it('keeps the Node runtime to itself and the server-side command, and the command to bin/cairn.js', () => {
    const intoNode = local.filter(
      (e) => e.to.startsWith('src/node/') && !e.from.startsWith('src/node/') && !e.from.startsWith('src/cli/'),
    );
    expect(intoNode.map(show)).toEqual([]);
    const intoCli = local.filter((e) => e.to.startsWith('src/cli/') && !e.from.startsWith('src/cli/'));
    expect(intoCli.map(show)).toEqual([]);
    // the Worker's entry loads none of them, through any chain of imports
    const pairs = local.map((e): [string, string] => [e.from, e.to]);
    const fromWorker = [...reachable(pairs, 'src/worker.ts')];
    expect(fromWorker).toContain('src/operator/portable.ts');
    expect(fromWorker.filter((f) => /^src\/(node|cli|agent)\//.test(f))).toEqual([]);
    // and the command does load the Node runtime, so the checks above look at real edges
    expect(reachable(pairs, 'src/cli/cli.ts')).toContain('src/node/node.ts');
  });

  it('keeps src/operator free of the runtimes, the outer layers and storage', () => {
    const fromOperator = local.filter((e) => e.from.startsWith('src/operator/'));
    expect(fromOperator.length).toBeGreaterThan(10);
    const forbidden = fromOperator.filter((e) => OUTSIDE_OPERATOR.some((part) => e.to.startsWith(part)));
    expect(forbidden.map(show)).toEqual([]);
  });

  it('has no import cycle between files', () => {
    const found = cycles(local.map((e) => [e.from, e.to]));
    expect(found.map(describeCycle)).toEqual([]);
  });

  it('has no import cycle between the folders of src', () => {
    const between = local.filter((e) => folderOf(e.from) !== folderOf(e.to));
    const found = cycles(between.map((e) => [folderOf(e.from), folderOf(e.to)]));
    // each step of a cycle named with one import that makes it
    const evidence = (path: string[]) =>
      path
        .slice(1)
        .map((to, i) => between.find((e) => folderOf(e.from) === path[i] && folderOf(e.to) === to) as ImportEdge)
        .map(show);
    expect(found.map((c) => `${describeCycle(c)}: ${evidence(c.path).join('; ')}`)).toEqual([]);
  });

  it(`keeps every file of src under ${MAX_LINES} lines`, () => {
    const long = sourceFiles(`${root}src`)
      .map((file) => ({ file: relative(root, file), lines: readFileSync(file, 'utf8').trimEnd().split('\n').length }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long.map((f) => `${f.file}: ${f.lines} lines`)).toEqual([]);
  });
});

describe('the architecture checks themselves', () => {
  it('find every kind of import, and none in comments or strings', () => {
    const source = [
      "import { a } from './a';",
      "import type { B } from '../b';",
      'import {',
      '  c,',
      '  type D,',
      "} from './cd';",
      "export { e } from './e';",
      "export type * from './f';",
      "import './g';",
      "const h = await import('./h');",
      "// import { x } from './commented';",
      "/* import { y } from './blocked'; */",
      "const url = 'https://example.com'; // a comment after a string with //",
      'const s = "import { z } from \'./quoted\'";',
    ].join('\n');
    expect(specifiers(source).sort()).toEqual(['../b', './a', './cd', './e', './f', './g', './h']);
  });

  it('reach what a chain of imports reaches, and nothing off it', () => {
    const graph: [string, string][] = [
      ['a', 'b'],
      ['b', 'c'],
      ['c', 'a'],
      ['d', 'a'],
    ];
    expect([...reachable(graph, 'a')].sort()).toEqual(['a', 'b', 'c']);
    expect([...reachable(graph, 'd')].sort()).toEqual(['a', 'b', 'c', 'd']);
  });

  it('name a cycle as a closed path, and none in a tree', () => {
    expect(
      cycles([
        ['a', 'b'],
        ['b', 'c'],
        ['c', 'a'],
        ['c', 'd'],
      ]),
    ).toEqual([{ nodes: ['a', 'b', 'c'], path: ['a', 'b', 'c', 'a'] }]);
    expect(cycles([['a', 'a']])).toEqual([{ nodes: ['a'], path: ['a', 'a'] }]);
    expect(
      cycles([
        ['a', 'b'],
        ['a', 'c'],
        ['b', 'c'],
      ]),
    ).toEqual([]);
  });
});
