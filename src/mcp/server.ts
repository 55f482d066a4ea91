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
  type McpRequestContext,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
} from '@modelcontextprotocol/server';
import type { z } from 'zod';
import { CairnError, Forbidden, Invalid, TooManyRequests, Unauthorized, Unavailable } from '../domain/errors';
import type { MemoryService } from '../domain/memory';
import { resolveProject } from '../domain/projects';
import { toolListing } from './listing';
import type { Caller, Tool, ToolContext } from './tool';

export const INSTRUCTIONS =
  "Cairn is your organisation's shared memory. Start a session with space view brief, then recall before each task. " +
  'remember what others will need, decide with a rationale, plan multi-step work, observe outcomes, note private ' +
  'scratch. Writes are attributed to your agent (X-Svc-Agent) and shared per scope.';

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

/** `modern`: the exchange speaks 2026-07-28 (structured content on argument errors). */
function buildServer(opts: ServeOptions, exchange: Exchange, modern: boolean): Server {
  const server = new Server(
    { name: 'cairn', version: opts.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
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
    const parsed = entry.tool.input.safeParse(request.params.arguments ?? {});
    const result = parsed.success
      ? await runTool(entry.tool, parsed.data, opts, exchange, modern)
      : invalidResult(badFields(parsed.error), modern);
    return server.projectCallToolResult(result as never, entry.outputSchema as never);
  });
  return server;
}

async function runTool(
  tool: Tool,
  input: Record<string, unknown>,
  opts: ServeOptions,
  exchange: Exchange,
  modern: boolean,
) {
  const { caller } = exchange;
  const project = resolveProject((input.project as string | undefined) ?? caller.projectHeader);
  const ctx: ToolContext = {
    service: opts.service,
    caller,
    project,
    who: { keyHash: caller.keyHash, agent: caller.agent, project: project.canonical },
    maxArtifactBytes: opts.maxArtifactBytes,
  };
  try {
    const r = await tool.handler(input, ctx);
    return {
      content: [...(r.content ?? []), { type: 'text', text: r.text }],
      structuredContent: r.structured as Record<string, unknown>,
    };
  } catch (err) {
    if (err instanceof Invalid) return invalidResult([{ field: err.field, message: err.reason }], modern);
    if (
      err instanceof Unauthorized ||
      err instanceof Forbidden ||
      err instanceof Unavailable ||
      err instanceof TooManyRequests
    ) {
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

  return async function serve(request: Request, body: unknown, exchange: Exchange): Promise<Response> {
    const authInfo = {
      token: exchange.caller.keyHash,
      clientId: exchange.caller.agent,
      scopes: [],
      extra: { exchange },
    };
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
