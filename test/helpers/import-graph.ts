/**
 * The import graph of a source tree, for the architecture test: every `import … from`,
 * `export … from`, side-effect `import '…'` and dynamic `import('…')` of every .ts/.tsx file,
 * type-only ones included, with relative specifiers resolved to files.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

export interface ImportEdge {
  /** The importing file, relative to the project root (`src/domain/ports.ts`). */
  from: string;
  /** The imported file, relative to the root; or the package name for a bare specifier. */
  to: string;
  /** Whether `to` is a file of the tree (else a package). */
  local: boolean;
}

const EXTENSIONS = ['', '.ts', '.tsx', '/index.ts', '/index.tsx'];
const STATIC = /^\s*(?:import|export)\b[^;'"`]*?\bfrom\s*(['"])([^'"]+)\1/gm;
const SIDE_EFFECT = /^\s*import\s*(['"])([^'"]+)\1/gm;
const DYNAMIC = /\bimport\(\s*(['"])([^'"]+)\1\s*\)/g;

/** The source with comments blanked out; strings and template literals are kept whole. */
export function withoutComments(source: string): string {
  let out = '';
  let i = 0;
  while (i < source.length) {
    const two = source.slice(i, i + 2);
    if (two === '//') {
      const end = source.indexOf('\n', i);
      i = end < 0 ? source.length : end;
    } else if (two === '/*') {
      const end = source.indexOf('*/', i + 2);
      i = end < 0 ? source.length : end + 2;
      out += ' ';
    } else if (`'"\``.includes(source[i] as string)) {
      const quote = source[i];
      const start = i++;
      while (i < source.length && source[i] !== quote) i += source[i] === '\\' ? 2 : 1;
      out += source.slice(start, ++i);
    } else {
      out += source[i++];
    }
  }
  return out;
}

/** The module specifiers a file's source names. */
export function specifiers(source: string): string[] {
  const code = withoutComments(source);
  return [STATIC, SIDE_EFFECT, DYNAMIC].flatMap((re) => [...code.matchAll(re)].map((m) => m[2] as string));
}

/** The .ts and .tsx files under `dir`, as paths (declaration files left out). */
export function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [path] : [];
  });
}

const isFile = (path: string) => statSync(path, { throwIfNoEntry: false })?.isFile() ?? false;

/** Every import edge of the .ts/.tsx files under `dir`; throws on a relative import that names no file. */
export function importGraph(root: string, dir: string): ImportEdge[] {
  return sourceFiles(resolve(root, dir)).flatMap((file) =>
    specifiers(readFileSync(file, 'utf8')).map((spec): ImportEdge => {
      const from = relative(root, file);
      if (!spec.startsWith('.')) return { from, to: spec, local: false };
      const base = resolve(file, '..', spec);
      const found = EXTENSIONS.map((ext) => base + ext).find(isFile);
      if (!found) throw new Error(`${from}: cannot resolve the import '${spec}'`);
      return { from, to: relative(root, found), local: true };
    }),
  );
}

/** The nodes `start` reaches through `edges`, itself included (breadth first). */
export function reachable(edges: [string, string][], start: string): Set<string> {
  const seen = new Set([start]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift() as string;
    for (const [a, b] of edges) {
      if (a === v && !seen.has(b)) {
        seen.add(b);
        queue.push(b);
      }
    }
  }
  return seen;
}

/** A knot of the graph: nodes that all reach each other, and one closed path `[a, b, …, a]` through them. */
export interface Cycle {
  nodes: string[];
  path: string[];
}

/** The cycles of a directed graph: one per strongly connected component (Tarjan); self-imports count. */
export function cycles(edges: [string, string][]): Cycle[] {
  const next = new Map<string, string[]>();
  for (const [a, b] of edges) {
    next.set(a, [...(next.get(a) ?? []), b]);
    if (!next.has(b)) next.set(b, []);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v) as number);
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) as number, low.get(w) as number));
      } else if (onStack.has(w)) {
        low.set(v, Math.min(low.get(v) as number, index.get(w) as number));
      }
    }
    if (low.get(v) === index.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop() as string;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || next.get(v)?.includes(v)) components.push(component);
    }
  };
  for (const v of [...next.keys()].sort()) if (!index.has(v)) visit(v);
  return components.map((component) => {
    const nodes = component.sort();
    return { nodes, path: closedPath(nodes, next) };
  });
}

/** A closed path from the component's first node back to it, through the component only (breadth first). */
function closedPath(component: string[], next: Map<string, string[]>): string[] {
  const start = component[0] as string;
  const inside = new Set(component);
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length) {
    const v = queue.shift() as string;
    for (const w of next.get(v) ?? []) {
      if (w === start) {
        const path = [start];
        for (let u: string | undefined = v; u !== undefined && u !== start; u = cameFrom.get(u)) path.splice(1, 0, u);
        return [...path, start];
      }
      if (inside.has(w) && !cameFrom.has(w)) {
        cameFrom.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
