/**
 * The MCP server factory: the only place that imports the MCP SDK. It registers the ten tools
 * through one wrapper that validates arguments (a bad one is a tool result with `isError` naming
 * each field and its fix, MCP 2025-11-25 / SEP-1303, so the model reads it), resolves the project,
 * and maps domain errors: 401, 403, 429 and 503 leave the tool result and become the HTTP status of
 * the whole exchange (see `Exchange`); the rest become `isError` results.
 */
import {
  createMcpHandler,
  isLegacyRequest,
  type JSONRPCRequest,
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  type Result,
  Server,
  type ServerContext,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { CairnError, Forbidden, Invalid, TooManyRequests, Unauthorized, Unavailable } from '../domain/errors';
import type { MemoryService } from '../domain/memory';
import { resolveProject } from '../domain/projects';
import { toolListing } from './listing';
import { askPrompt, BRIEF_URI, PROMPTS, RECORD_TEXT, RESOURCES, unknownResource } from './prompts';
import { describeIssues, envelopeFault, issuesIn } from './protocol-faults';
import type { Caller, Tool, ToolContext } from './tool';
import { space } from './tools/space';

export const INSTRUCTIONS =
  "Cairn is your organisation's shared memory. Start a session with space view brief, then recall before each task. " +
  'remember what others will need, decide with a rationale, plan multi-step work, observe outcomes, note private ' +
  'scratch. Writes are attributed to your agent (X-Svc-Agent) and shared per scope. Give a fix the tags of the ' +
  'failure it fixes and name its error code or identifier ("Fixed ERR_X: …"): recall brings along an entry that ' +
  'shares two tags with a hit, one of them a rare tag, and the brief can stop listing the failure as open.';

/** What the endpoint reads of an HTTP request: its headers, and (for the SDK) a web Request. */
export interface McpHttp {
  /** A header by its lower-case name. */
  header(name: string): string | null | undefined;
  /** The request as a web Request, its body already read and parsed (made only for the SDK). */
  web(): Request;
}

/**
 * A 200 JSON answer, written by the runtime as it is: the plain requests' answer, made without a
 * web Response (on Node it goes straight to the socket, src/node/mcp.ts).
 */
export interface JsonAnswer {
  status: 200;
  json: string;
}

export type McpAnswer = Response | JsonAnswer;

/** One HTTP exchange: who calls, and an error that must become the exchange's HTTP status. */
export interface Exchange {
  caller: Caller;
  failure?: CairnError;
}

interface ServeOptions {
  service: MemoryService;
  version: string;
  maxArtifactBytes: number;
  maxBodyBytes: number;
  log: (message: string, err?: unknown) => void;
  /** Answer every request through the SDK, plain ones included (tests compare the two). */
  sdkOnly?: boolean;
}

interface BadField {
  field: string;
  message: string;
}

const badFields = (error: z.ZodError): BadField[] =>
  error.issues.slice(0, 5).map((i) => ({ field: i.path.join('.') || 'arguments', message: i.message }));

/**
 * Bad arguments as a tool result the model reads: the text names each field and what to fix. On
 * 2026-07-28 the fields come as structured content too; on the 2025 revisions they do not, because
 * the v1 SDK client checks any structured content against the tool's output schema even on an
 * error, and would throw the message away.
 */
function invalidResult(fields: BadField[], structured: boolean) {
  const text = `Invalid arguments, nothing was done; fix and call again: ${fields.map((f) => `${f.field}: ${f.message}`).join('; ')}`;
  return {
    content: [{ type: 'text', text }],
    isError: true,
    ...(structured ? { structuredContent: { error: 'invalid_arguments', fields } } : {}),
  };
}

/** Each tool's argument names, for refusing one it does not take. */
const argNames = new WeakMap<Tool, Set<string>>();

/**
 * Arguments the tool does not take: refused by name, never dropped — an agent that sends
 * `supersedes` to a tool without it must learn the link was not made.
 */
function unknownFields(tool: Tool, args: unknown): BadField[] {
  if (!isPlainObject(args)) return [];
  const known = argNames.get(tool) ?? new Set(Object.keys(tool.input.shape));
  argNames.set(tool, known);
  return Object.keys(args)
    .filter((k) => !known.has(k))
    .slice(0, 5)
    .map((field) => ({ field, message: `${tool.name} takes no such argument; it takes ${[...known].join(', ')}` }));
}

/** A tool call's result: its arguments checked, then the tool run (`modern`: 2026-07-28). */
async function callTool(tool: Tool, args: unknown, opts: ServeOptions, exchange: Exchange, modern: boolean) {
  const unknown = unknownFields(tool, args);
  if (unknown.length) return invalidResult(unknown, modern);
  const parsed = tool.input.safeParse(args ?? {});
  return parsed.success
    ? await runTool(tool, parsed.data, opts, exchange, modern)
    : invalidResult(badFields(parsed.error), modern);
}

type Handler = (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>;

/**
 * The SDK's Server, with its refusal of a malformed request (`initialize` with `capabilities:
 * null`, `tools/list` with a numeric cursor, …) answered -32602 naming the field
 * (src/mcp/protocol-faults.ts). The SDK checks each request against its method's schema and
 * throws the zod issues as an Error's message (-32603), or for tools/call as a -32602 prefixed
 * "Invalid tools/call request: "; any other error is left as it is.
 */
class CairnServer extends Server {
  protected override _wrapHandler(method: string, handler: Handler): Handler {
    const wrapped = super._wrapHandler(method, handler);
    const prefix = `Invalid ${method} request: `;
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (err) {
        const refused =
          err instanceof ProtocolError
            ? err.code === ProtocolErrorCode.InvalidParams && err.message.startsWith(prefix)
            : err instanceof Error && err.constructor === Error;
        const issues = refused ? issuesIn((err as Error).message.replace(prefix, '')) : undefined;
        throw issues ? new ProtocolError(ProtocolErrorCode.InvalidParams, describeIssues(method, issues)) : err;
      }
    };
  }
}

/** `modern`: the exchange speaks 2026-07-28 (structured content on argument errors). */
function buildServer(opts: ServeOptions, exchange: Exchange, modern: boolean): Server {
  const server = new CairnServer(
    { name: 'cairn', version: opts.version },
    { capabilities: { tools: {}, prompts: {}, resources: {} }, instructions: INSTRUCTIONS },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: toolListing().tools as never }));
  server.setRequestHandler('tools/call', async (request) => {
    const entry = toolListing().byName.get(request.params.name);
    if (!entry) {
      throw new ProtocolError(
        ProtocolErrorCode.InvalidParams,
        `Unknown tool "${request.params.name}"; call tools/list for the ten tools`,
      );
    }
    const result = await callTool(entry.tool, request.params.arguments, opts, exchange, modern);
    return server.projectCallToolResult(result as never, entry.outputSchema as never);
  });
  servePrompts(server, opts, exchange);
  return server;
}

/** Prompts and resources (src/mcp/prompts.ts): a brief is the `space` tool's, for this exchange's caller. */
function servePrompts(server: Server, opts: ServeOptions, exchange: Exchange): void {
  server.setRequestHandler('prompts/list', async () => ({ prompts: PROMPTS }));
  server.setRequestHandler('prompts/get', async (request) => {
    const ask = askPrompt(request.params.name, request.params.arguments);
    if ('refused' in ask) throw new ProtocolError(ProtocolErrorCode.InvalidParams, ask.refused);
    const text = ask.prompt === 'record' ? RECORD_TEXT : await briefText(opts, exchange, ask.budget);
    const description = PROMPTS.find((p) => p.name === ask.prompt)?.description;
    return { description, messages: [{ role: 'user' as const, content: { type: 'text' as const, text } }] };
  });
  server.setRequestHandler('resources/list', async () => ({ resources: RESOURCES }));
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [] }));
  server.setRequestHandler('resources/read', async (request) => {
    const { uri } = request.params;
    if (uri !== BRIEF_URI) throw new ResourceNotFoundError(uri, unknownResource(uri));
    return { contents: [{ uri, mimeType: 'text/markdown', text: await briefText(opts, exchange, undefined) }] };
  });
}

/**
 * The caller's brief as `space` view `brief` gives it, through that tool's own handler and the same
 * project resolution. An error that is the exchange's HTTP status (401, 403, 429, 503) is left
 * there, as for a tool call; any other becomes an internal error.
 */
async function briefText(opts: ServeOptions, exchange: Exchange, budget: number | undefined): Promise<string> {
  const input = space.input.parse({ view: 'brief', ...(budget === undefined ? {} : { budget_chars: budget }) });
  try {
    return (await space.handler(input, toolContext(input, opts, exchange))).text;
  } catch (err) {
    if (isExchangeFailure(err)) exchange.failure = err;
    else if (!(err instanceof CairnError)) opts.log('brief failed', err);
    const message =
      err instanceof CairnError ? err.message : 'Cairn hit an unexpected error; retry, and report it if it repeats.';
    throw new ProtocolError(ProtocolErrorCode.InternalError, message);
  }
}

/** An error that leaves the result and becomes the HTTP status of the whole exchange. */
const isExchangeFailure = (err: unknown): err is CairnError =>
  err instanceof Unauthorized ||
  err instanceof Forbidden ||
  err instanceof Unavailable ||
  err instanceof TooManyRequests;

/** What a tool runs with: the caller, and the project its `project` argument or the header names. */
function toolContext(input: Record<string, unknown>, opts: ServeOptions, exchange: Exchange): ToolContext {
  const { caller } = exchange;
  const project = resolveProject((input.project as string | undefined) ?? caller.projectHeader);
  return {
    service: opts.service,
    caller,
    project,
    who: { keyHash: caller.keyHash, agent: caller.agent, project: project.canonical, agentSource: caller.agentSource },
    maxArtifactBytes: opts.maxArtifactBytes,
  };
}

/** The 2025 revisions, whose stateless exchanges answer a plain request with one JSON body. */
const REVISIONS_2025 = new Set(['2025-03-26', '2025-06-18', '2025-11-25']);

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * A well-formed `tools/list` or `tools/call` of a known tool, on a 2025 revision, with the headers
 * Streamable HTTP asks for: what a client sends on every call of a session. It is answered here,
 * exactly as the SDK's stateless transport would answer it (test/mcp/plain-requests.test.ts compares the
 * two), without building a server and a transport for one request; anything else goes to the SDK.
 */
function plainRequest(http: McpHttp, body: unknown) {
  if (!isPlainObject(body) || body.jsonrpc !== '2.0') return undefined;
  const { id, method, params } = body;
  if (!(typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id)))) return undefined;
  if (params !== undefined && !isPlainObject(params)) return undefined;
  if (!REVISIONS_2025.has(http.header('mcp-protocol-version') ?? '')) return undefined;
  const accept = http.header('accept') ?? '';
  if (!accept.includes('application/json') || !accept.includes('text/event-stream')) return undefined;
  if (method === 'tools/list') {
    return params?.cursor === undefined || typeof params.cursor === 'string' ? { id, tool: undefined } : undefined;
  }
  if (method !== 'tools/call' || typeof params?.name !== 'string') return undefined;
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) return undefined;
  const entry = toolListing().byName.get(params.name);
  return entry ? { id, tool: entry.tool, args: params.arguments } : undefined;
}

async function runTool(
  tool: Tool,
  input: Record<string, unknown>,
  opts: ServeOptions,
  exchange: Exchange,
  modern: boolean,
) {
  try {
    const r = await tool.handler(input, toolContext(input, opts, exchange));
    return {
      content: [...(r.content ?? []), { type: 'text', text: r.text }],
      structuredContent: r.structured as Record<string, unknown>,
    };
  } catch (err) {
    if (err instanceof Invalid) return invalidResult([{ field: err.field, message: err.reason }], modern);
    if (isExchangeFailure(err)) {
      exchange.failure = err;
      return { content: [{ type: 'text', text: err.message }], isError: true };
    }
    if (err instanceof CairnError) return { content: [{ type: 'text', text: err.message }], isError: true };
    opts.log(`tool ${tool.name} failed`, err);
    return {
      content: [
        {
          type: 'text',
          text: 'Cairn hit an unexpected error; nothing is known to be stored. Retry, and report it if it repeats.',
        },
      ],
      isError: true,
    };
  }
}

/**
 * Serves one POST /mcp exchange whose JSON body is already parsed: protocol 2026-07-28 through the
 * SDK's per-request handler, 2025 revisions through a stateless transport answering in JSON.
 */
export function createMcpEndpoint(opts: ServeOptions) {
  const factory = (ctx: McpRequestContext) => buildServer(opts, ctx.authInfo?.extra?.exchange as Exchange, true);
  const modern = createMcpHandler(factory, {
    legacy: 'reject',
    responseMode: 'auto',
    maxRequestBodySize: opts.maxBodyBytes,
  });

  return async function serve(http: McpHttp, body: unknown, exchange: Exchange): Promise<McpAnswer> {
    const authInfo = {
      token: exchange.caller.keyHash,
      clientId: exchange.caller.agent,
      scopes: [],
      extra: { exchange },
    };
    // params (or _meta) that are not an object: the SDK's transport would refuse the whole body
    const fault = envelopeFault(body);
    if (fault) {
      const error = { code: ProtocolErrorCode.InvalidParams, message: fault.message };
      return { status: 200, json: JSON.stringify({ jsonrpc: '2.0', id: fault.id, error }) };
    }
    const plain = opts.sdkOnly ? undefined : plainRequest(http, body);
    if (plain) {
      let message: string;
      try {
        // the listing is serialised once; a call's result each time
        const result = plain.tool
          ? JSON.stringify(await callTool(plain.tool, plain.args, opts, exchange, false))
          : toolListing().json;
        message = `{"result":${result},"jsonrpc":"2.0","id":${JSON.stringify(plain.id)}}`;
      } catch (err) {
        // what the SDK answers when a handler throws: an internal error, in a 200 exchange
        opts.log('tool call failed', err);
        const text = err instanceof Error ? err.message : String(err);
        message = JSON.stringify({
          jsonrpc: '2.0',
          id: plain.id,
          error: { code: ProtocolErrorCode.InternalError, message: text },
        });
      }
      return { status: 200, json: message };
    }
    const request = http.web();
    if (!(await isLegacyRequest(request, body, { maxRequestBodySize: opts.maxBodyBytes }))) {
      return modern.fetch(request, { authInfo, parsedBody: body });
    }
    const server = buildServer(opts, exchange, false);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: undefined,
      enableJsonResponse: true,
    });
    await server.connect(transport);
    try {
      return await transport.handleRequest(request, { authInfo, parsedBody: body });
    } finally {
      await transport.close().catch(() => {});
      await server.close().catch(() => {});
    }
  };
}
