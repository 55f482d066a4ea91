/**
 * A minimal MCP client over Streamable HTTP: one POST of a `tools/call` per call, no session and
 * no initialize (Cairn's /mcp is stateless and answers a plain call; src/http/mcp.ts). Every
 * failure — unreachable, too slow, refused, a protocol error — is an AgentError of one line.
 */
import { type AgentConfig, AgentError } from './config';

const PROTOCOL_VERSION = '2025-06-18';

export interface ToolResult {
  /** The tool's text for the model. */
  text: string;
  structured: Record<string, unknown>;
  /** A tool-level error (an argument, a limit): `text` says what to fix. */
  isError: boolean;
  /** The server's clock when it answered (its Date header), when it sent one. */
  serverDate: Date | undefined;
}

export interface CallOptions {
  /** The request is abandoned after this long. */
  timeoutMs: number;
  /** X-Svc-Project; none: org-wide. */
  project: string | undefined;
}

/** Calls one tool. */
export async function callTool(
  config: AgentConfig,
  name: string,
  args: Record<string, unknown>,
  { timeoutMs, project }: CallOptions,
): Promise<ToolResult> {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-protocol-version': PROTOCOL_VERSION,
  };
  // API keys have their own header; anything else is taken for an OAuth access token
  if (/^svc_/.test(config.key)) headers['x-svc-key'] = config.key;
  else headers.authorization = `Bearer ${config.key}`;
  if (config.agent) headers['x-svc-agent'] = headerValue(config.agent);
  if (project) headers['x-svc-project'] = headerValue(project);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } });
  const where = new URL(config.mcpUrl).origin;
  let res: Response;
  let raw: string;
  try {
    res = await fetch(config.mcpUrl, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs) });
    raw = await res.text();
  } catch (err) {
    const e = err as Error & { cause?: { code?: string; message?: string } };
    if (e.name === 'TimeoutError' || e.name === 'AbortError') {
      throw new AgentError(`Cairn at ${where} did not answer within ${timeoutMs} ms`);
    }
    throw new AgentError(`cannot reach Cairn at ${where}: ${e.cause?.code ?? e.cause?.message ?? e.message}`);
  }
  const message = parseMessage(raw, res.headers.get('content-type'));
  if (!res.ok) throw httpError(res, message, where);
  if (!message) throw new AgentError(`Cairn at ${where} answered ${name} with no JSON-RPC message`);
  if (message.error) throw new AgentError(`Cairn refused ${name}: ${message.error.message ?? 'error'}`);
  const result = message.result ?? {};
  const date = res.headers.get('date');
  return {
    text: (result.content ?? [])
      .filter((c) => c.type === 'text')
      .map((c) => c.text ?? '')
      .join('\n'),
    structured: result.structuredContent ?? {},
    isError: result.isError === true,
    serverDate: date && !Number.isNaN(Date.parse(date)) ? new Date(date) : undefined,
  };
}

interface RpcMessage {
  error?: { message?: string };
  result?: {
    content?: { type: string; text?: string }[];
    structuredContent?: Record<string, unknown>;
    isError?: boolean;
  };
}

/** The response's JSON-RPC message: the body, or the last `data:` event of a stream. */
function parseMessage(raw: string, type: string | null): RpcMessage | undefined {
  const json = type?.includes('text/event-stream')
    ? raw
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).trim())
        .at(-1)
    : raw;
  try {
    const parsed = JSON.parse(json ?? '');
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as RpcMessage) : undefined;
  } catch {
    return undefined;
  }
}

function httpError(res: Response, message: RpcMessage | undefined, where: string): AgentError {
  const why = message?.error?.message ?? res.statusText;
  if (res.status === 401) return new AgentError(`Cairn at ${where} refused CAIRN_KEY (401): ${why}`);
  if (res.status === 403) return new AgentError(`Cairn at ${where} refused the request (403): ${why}`);
  if (res.status === 429) {
    const after = res.headers.get('retry-after');
    return new AgentError(`Cairn at ${where} is rate-limiting (429${after ? `, retry after ${after} s` : ''}): ${why}`);
  }
  return new AgentError(`Cairn at ${where} answered HTTP ${res.status}: ${why}`);
}

/**
 * A header value as bytes: fetch sends only Latin-1 characters, so a name like `zoë` or a path
 * with non-ASCII characters goes as its UTF-8 bytes, which the server reads back as UTF-8.
 */
function headerValue(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
