/**
 * What tools/list costs and whether it is portable (docs/design.md, "What the model reads"): the
 * sizes the issue budgets, the input properties without a description, the MCP Inspector's
 * schema rules restated for a unit check, and the real Inspector CLI in strict mode.
 */
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

type Json = { [key: string]: unknown };

export interface ListedTool {
  name: string;
  description?: string;
  inputSchema: Json;
  outputSchema?: Json;
}

/** The most characters of what the model reads: every tool's name, description and input schema. */
export const MODEL_READ_LIMIT = 10_000;
/** The most characters of the whole tools/list result. */
export const LISTING_LIMIT = 18_000;

export interface Sizes {
  /** name + description + JSON of inputSchema, over every tool. */
  modelRead: number;
  /** JSON of every outputSchema. */
  outputSchemas: number;
  /** JSON of the whole tools/list result. */
  whole: number;
}

export function sizes(result: { tools: ListedTool[] }): Sizes {
  let modelRead = 0;
  let outputSchemas = 0;
  for (const t of result.tools) {
    modelRead += t.name.length + (t.description ?? '').length + JSON.stringify(t.inputSchema).length;
    outputSchemas += JSON.stringify(t.outputSchema ?? {}).length;
  }
  return { modelRead, outputSchemas, whole: JSON.stringify(result).length };
}

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths of input properties without a description, at any depth (array items and branches too). */
export function undescribed(schema: Json, path = ''): string[] {
  const missing: string[] = [];
  if (isObject(schema.properties)) {
    for (const [name, prop] of Object.entries(schema.properties)) {
      if (!isObject(prop)) continue;
      const at = path ? `${path}.${name}` : name;
      if (typeof prop.description !== 'string' || prop.description.trim() === '') missing.push(at);
      missing.push(...undescribed(prop, at));
    }
  }
  if (isObject(schema.items)) missing.push(...undescribed(schema.items, `${path}[]`));
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const branches = schema[key];
    if (Array.isArray(branches)) for (const b of branches) if (isObject(b)) missing.push(...undescribed(b, path));
  }
  return missing;
}

/** A JSON Schema keyword that constrains a value (the Inspector's list): its absence means "anything". */
const CONSTRAINING = new Set([
  ...['type', 'enum', 'const', 'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum'],
  ...['maxLength', 'minLength', 'pattern', 'format', 'contentMediaType', 'contentEncoding', 'contentSchema'],
  ...['maxItems', 'minItems', 'uniqueItems', 'maxContains', 'minContains', 'maxProperties', 'minProperties'],
  ...['required', 'dependentRequired', 'properties', 'patternProperties', 'additionalProperties', 'propertyNames'],
  ...['items', 'prefixItems', 'contains', 'additionalItems', 'unevaluatedItems', 'unevaluatedProperties'],
  ...['dependentSchemas', 'dependencies', 'allOf', 'anyOf', 'oneOf', 'not', '$ref', '$dynamicRef', '$recursiveRef'],
]);
const BOOLEAN_ALLOWED = new Set([
  'additionalProperties',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
]);
const MAPS = ['properties', 'patternProperties', 'dependentSchemas', '$defs', 'definitions'];
const LISTS = ['allOf', 'anyOf', 'oneOf', 'prefixItems'];
const SINGLES = ['items', 'contains', 'not', 'propertyNames', 'if', 'then', 'else', 'contentSchema'];

/**
 * The rules of the Inspector's `--strict` lint (clients/cli, lintNode), restated so that a unit
 * test can check them without a server: no `type` array, no `$ref` outside the document, no
 * schema without a constraining keyword, no bare boolean schema except where JSON Schema expects one.
 */
export function portabilityFindings(node: unknown, path = '', keyword?: string): string[] {
  if (typeof node === 'boolean') {
    return keyword !== undefined && BOOLEAN_ALLOWED.has(keyword) ? [] : [`${path}: bare boolean schema`];
  }
  if (!isObject(node)) return [];
  const found: string[] = [];
  if (Array.isArray(node.type)) found.push(`${path}: type is an array`);
  if (typeof node.$ref === 'string' && !node.$ref.startsWith('#')) found.push(`${path}: remote $ref`);
  const constrains =
    Object.keys(node).some((k) => CONSTRAINING.has(k)) || ('if' in node && ('then' in node || 'else' in node));
  if (!constrains && keyword !== 'not') found.push(`${path}: schema constrains nothing`);
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const children: [unknown, string, string][] = [];
  for (const key of MAPS) {
    const map = node[key];
    if (isObject(map)) for (const [name, sub] of Object.entries(map)) children.push([sub, at(`${key}.${name}`), key]);
  }
  for (const key of LISTS) {
    const list = node[key];
    if (Array.isArray(list)) for (const [i, sub] of list.entries()) children.push([sub, `${at(key)}[${i}]`, key]);
  }
  for (const key of [...SINGLES, ...BOOLEAN_ALLOWED]) if (key in node) children.push([node[key], at(key), key]);
  for (const [sub, where, key] of children) found.push(...portabilityFindings(sub, where, key));
  return found;
}

const LAUNCHER = join(
  dirname(createRequire(import.meta.url).resolve('@modelcontextprotocol/inspector/package.json')),
  'clients/launcher/build/index.js',
);

export interface InspectorRun {
  /** The tools the Inspector listed. */
  tools: ListedTool[];
  /** Its strict-mode findings, one line per finding: tool, rule, severity, where. */
  findings: string[];
}

/**
 * Runs the MCP Inspector CLI in strict mode against a running server (asynchronously: the server
 * may be in this very process). `era`: legacy negotiates a 2025 revision, modern 2026-07-28.
 */
export function runInspector(mcpUrl: string, key: string, era: 'legacy' | 'modern'): Promise<InspectorRun> {
  const args = [LAUNCHER, '--cli', '--strict', mcpUrl, '--method', 'tools/list'];
  args.push('--header', `X-Svc-Key: ${key}`, '--protocol-era', era, '--format', 'json');
  const child = spawn(process.execPath, args, {
    env: { ...process.env, PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += String(d)));
  child.stderr.on('data', (d) => (stderr += String(d)));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => {
      try {
        const out = JSON.parse(stdout) as {
          result: { tools: ListedTool[] };
          schemaFindings?: {
            toolName: string;
            findings: { rule: string; severity: string; schema: string; path: string }[];
          }[];
        };
        const findings = (out.schemaFindings ?? []).flatMap((t) =>
          t.findings.map((f) => `${t.toolName}: ${f.rule} (${f.severity}) at ${f.schema}.${f.path}`),
        );
        resolve({ tools: out.result.tools, findings });
      } catch {
        reject(new Error(`the Inspector exited ${code}:\n${stdout.slice(0, 2000)}\n${stderr.slice(0, 2000)}`));
      }
    });
  });
}
