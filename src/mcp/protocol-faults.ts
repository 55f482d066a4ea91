/**
 * Malformed protocol messages (not a tool's arguments: those are tool results, src/mcp/server.ts)
 * answered as JSON-RPC -32602 with a sentence naming the field, such as
 * `initialize: params.capabilities must be an object, not null`, never the schema library's dump.
 * Two cases: `params` (or its `_meta`) there but not an object, which the SDK's transport refuses
 * as a whole body (-32600),
 * and a request the SDK's schema for its method refused (which it reports as the zod issues,
 * serialised into the error's message).
 */

/** One refused value, as zod reports it. */
export interface Issue {
  path: (string | number)[];
  message: string;
  code?: string;
  expected?: string;
}

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** A method named back only when it reads as one (the name is the caller's). */
const methodName = (m: string) => (/^[\w/.-]{1,64}$/.test(m) ? m : 'request');

const kindOf = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v);

/**
 * A JSON-RPC request (it has an id, so it is answered) whose `params`, or `params._meta`, is there
 * but not an object: its id and the answer's message. MCP's params are always objects.
 */
export function envelopeFault(body: unknown): { id: string | number; message: string } | undefined {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0' || typeof body.method !== 'string') return undefined;
  const { id, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return undefined;
  if (!('params' in body)) return undefined;
  const method = methodName(body.method);
  if (!isPlainObject(params)) return { id, message: `${method}: params must be an object, not ${kindOf(params)}` };
  if (!('_meta' in params) || isPlainObject(params._meta)) return undefined;
  return { id, message: `${method}: params._meta must be an object, not ${kindOf(params._meta)}` };
}

/** The issues in a message that is zod's serialisation of them; undefined for any other message. */
export function issuesIn(message: string): Issue[] | undefined {
  if (!message.startsWith('[')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(message);
  } catch {
    return undefined;
  }
  const isIssue = (i: unknown): i is Issue =>
    isPlainObject(i) && Array.isArray(i.path) && typeof i.message === 'string';
  return Array.isArray(parsed) && parsed.length > 0 && parsed.every(isIssue) ? parsed : undefined;
}

const TYPE_NAMES: Record<string, string> = { record: 'object', int: 'integer', nan: 'number' };
const withArticle = (t: string) => `${/^[aeiou]/.test(t) ? 'an' : 'a'} ${t}`;

/** One issue as a phrase: `params.clientInfo must be an object, not number`. */
function phrase(issue: Issue): string {
  const field = issue.path.length ? issue.path.join('.') : 'params';
  if (issue.code === 'invalid_type' && issue.expected) {
    const expected = withArticle(TYPE_NAMES[issue.expected] ?? issue.expected);
    const received = / received (\w+)$/.exec(issue.message)?.[1];
    if (received === 'undefined') return `${field} is required (${expected})`;
    return `${field} must be ${expected}${received ? `, not ${received}` : ''}`;
  }
  return `${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
}

/** What a request the schema of `method` refused is told: its first three issues, each naming its field. */
export function describeIssues(method: string, issues: Issue[]): string {
  return `${methodName(method)}: ${issues.slice(0, 3).map(phrase).join('; ')}`;
}
