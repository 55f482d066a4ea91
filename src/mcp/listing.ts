/**
 * The tools/list answer: each tool's input and output JSON Schema, generated from its zod and then
 * made portable and compact (docs/design.md, "What the model reads"):
 * - portable: a nullable value is `anyOf` of single types, never a `type` array; no schema without
 *   a validation keyword (a free-form object is `{type: "object"}`); the MCP Inspector's strict
 *   mode finds nothing (test/e2e/listing.test.ts);
 * - compact: an id is `format: "uuid"`, and no length bound or pattern is published (the server
 *   checks every one with the zod and names the field and the limit); no safe-integer bounds, no
 *   `propertyNames` of strings; an output schema carries no descriptions (the model reads the
 *   inputs'), names the fields of the objects inside a result rather than typing them, and writes a
 *   shape it holds more than once under `$defs`.
 */
import { z } from 'zod';
import { UUID_RE } from '../domain/ids';
import { entryOut, eventOut } from '../domain/schemas';
import type { Tool } from './tool';
import { TOOLS } from './tools/index';

type Json = { [key: string]: unknown };

export interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: Json;
  outputSchema: Json;
  annotations: object;
}

interface Listing {
  tools: ListedTool[];
  /** `{"tools":[…]}`, serialised once: the plain answer to tools/list embeds it as it is. */
  json: string;
  byName: Map<string, { tool: Tool; outputSchema: Json }>;
}
let listing: Listing | undefined;

/** The tools/list answer, built on first use (no work at module scope: Workers start faster). */
export function toolListing(): Listing {
  if (!listing) {
    const listed = TOOLS.map((t) => ({
      name: t.name,
      title: t.title,
      description: t.description,
      inputSchema: inputJsonSchema(t.input),
      outputSchema: outputJsonSchema(t.output),
      annotations: { title: t.title, ...t.annotations },
    }));
    listing = {
      tools: listed,
      json: JSON.stringify({ tools: listed }),
      byName: new Map(TOOLS.map((t, i) => [t.name, { tool: t, outputSchema: listed[i]?.outputSchema ?? {} }])),
    };
  }
  return listing;
}

/** What the model reads of a tool's arguments: descriptions, enums, defaults and numeric ranges. */
export function inputJsonSchema(schema: z.ZodObject): Json {
  return portable(z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as Json, false);
}

/**
 * What a result holds, for clients that validate `structuredContent`: the result's own fields with
 * their types, and each object inside them (an entry, an event, an artifact, the quota) by the
 * names of its fields, so that the ten output schemas stay a third of the listing (the types are in
 * src/domain/schemas.ts; docs/design.md says why). Converted through a registry of its own, which
 * holds none of the `.describe()` texts and names the shapes results share: one a result holds
 * more than once (space: ledger events) is written once, under `$defs`.
 */
export function outputJsonSchema(schema: z.ZodObject): Json {
  const shapes = z.registry<{ id: string }>();
  shapes.add(entryOut, { id: 'entry' });
  shapes.add(eventOut, { id: 'event' });
  const json = z.toJSONSchema(schema, { io: 'output', unrepresentable: 'any', metadata: shapes }) as Json;
  portable(json, true);
  for (const field of Object.values(json.properties as Json)) namesOnly(field as Json);
  for (const def of Object.values((json.$defs ?? {}) as Json)) namesOnly(def as Json);
  return inlineSingleUse(json);
}

/** An object in a result's field keeps its type and the names of its fields (`required`). */
function namesOnly(node: Json): void {
  if (node.type === 'object' && isObject(node.properties)) {
    for (const key of Object.keys(node)) if (key !== 'type' && key !== 'required') delete node[key];
    return;
  }
  if (isObject(node.items)) namesOnly(node.items);
  if (Array.isArray(node.anyOf)) node.anyOf.filter(isObject).forEach(namesOnly);
}

const UUID_PATTERN = UUID_RE.source;
const SAFE = Number.MAX_SAFE_INTEGER;

/** Rewrites one generated schema in place (and returns it); `output` also drops descriptions. */
function portable(node: Json, output: boolean): Json {
  delete node.$schema;
  if (Array.isArray(node.type)) {
    node.anyOf = node.type.map((type) => ({ type }));
    delete node.type;
  }
  // length bounds and patterns are the server's to check: it names the field and the limit
  if (node.pattern === UUID_PATTERN) node.format = 'uuid';
  for (const key of ['pattern', 'minLength', 'maxLength', 'minItems', 'maxItems']) delete node[key];
  if (node.minimum === -SAFE) delete node.minimum;
  if (node.maximum === SAFE) delete node.maximum;
  if (isEmpty(node.additionalProperties)) delete node.additionalProperties;
  if (isStringKeys(node.propertyNames)) delete node.propertyNames;
  if (output) {
    delete node.description;
    if (node.additionalProperties === false) delete node.additionalProperties;
  }
  for (const child of subschemas(node)) portable(child, output);
  return node;
}

const isEmpty = (v: unknown) => isObject(v) && Object.keys(v).length === 0;
const isStringKeys = (v: unknown) => isObject(v) && Object.keys(v).length === 1 && v.type === 'string';
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

function subschemas(node: Json): Json[] {
  const found: Json[] = [];
  for (const key of ['properties', '$defs']) {
    if (isObject(node[key])) found.push(...Object.values(node[key]).filter(isObject));
  }
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    if (Array.isArray(node[key])) found.push(...node[key].filter(isObject));
  }
  for (const key of ['items', 'additionalProperties']) {
    if (isObject(node[key])) found.push(node[key]);
  }
  return found;
}

/** A shared shape a schema holds only once goes back in place: a `$ref` would only add length. */
function inlineSingleUse(root: Json): Json {
  const defs = root.$defs;
  if (!isObject(defs)) return root;
  const refs = new Map<string, Json[]>();
  const collect = (node: Json) => {
    if (typeof node.$ref === 'string') refs.set(node.$ref, [...(refs.get(node.$ref) ?? []), node]);
    subschemas(node).forEach(collect);
  };
  collect(root);
  for (const [name, def] of Object.entries(defs)) {
    const uses = refs.get(`#/$defs/${name}`) ?? [];
    if (uses.length > 1) continue;
    for (const use of uses) {
      delete use.$ref;
      Object.assign(use, def);
    }
    delete defs[name];
  }
  if (Object.keys(defs).length === 0) delete root.$defs;
  return root;
}
