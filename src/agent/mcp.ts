/**
 * A minimal MCP client over Streamable HTTP: one POST of a `tools/call` per call, no session and
 * no initialize (Cairn's /mcp is stateless and answers a plain call; src/http/mcp.ts). Every
 * failure — unreachable, too slow, refused, a protocol error — is an AgentError of one line.
 * The request goes out through http.ts (not fetch, not node:http's client for an http:// server:
 * what they cost to set up counts on every hook).
 */
import { type AgentConfig, AgentError } from './config';
import { post, type RawResponse } from './http';

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
  /** Called once the request is written: what the caller can do while the server answers. */
  onSent?: (() => void) | undefined;
}

/** Calls one tool. */
export async function callTool(
  config: AgentConfig,
  name: string,
  args: Record<string, unknown>,
  { timeoutMs, project, onSent }: CallOptions,
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
  let res: RawResponse;
  try {
    res = await post(config.mcpUrl, headers, body, timeoutMs, onSent);
  } catch (err) {
    const e = err as Error & { code?: string };
    if (e.name === 'TimeoutError') throw new AgentError(`Cairn at ${where} did not answer within ${timeoutMs} ms`);
    throw new AgentError(`cannot reach Cairn at ${where}: ${e.code ?? e.message}`);
  }
  const raw = res.body;
  const message = parseMessage(raw, res.header('content-type'));
  if (res.status < 200 || res.status > 299) throw httpError(res, message, where);
  if (!message) throw new AgentError(`Cairn at ${where} answered ${name} with no JSON-RPC message`);
  if (message.error) throw new AgentError(`Cairn refused ${name}: ${message.error.message ?? 'error'}`);
  const result = message.result ?? {};
  const date = res.header('date');
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

function httpError(res: RawResponse, message: RpcMessage | undefined, where: string): AgentError {
  const why = message?.error?.message ?? `HTTP ${res.status}`;
  if (res.status === 401) return new AgentError(`Cairn at ${where} refused CAIRN_KEY (401): ${why}`);
  if (res.status === 403) return new AgentError(`Cairn at ${where} refused the request (403): ${why}`);
  if (res.status === 429) {
    const after = res.header('retry-after');
    return new AgentError(`Cairn at ${where} is rate-limiting (429${after ? `, retry after ${after} s` : ''}): ${why}`);
  }
  return new AgentError(`Cairn at ${where} answered HTTP ${res.status}: ${why}`);
}

/**
 * A header value as bytes: a header carries one byte per character, so a name like `zoë` or a
 * path with non-ASCII characters goes as its UTF-8 bytes, which the server reads back as UTF-8.
 */
function headerValue(text: string): string {
  return Buffer.from(text, 'utf8').toString('latin1');
}
