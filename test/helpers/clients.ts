/**
 * Real MCP clients over real HTTP: the current SDK client on the 2025 handshake and pinned to
 * 2026-07-28, and the v1 `@modelcontextprotocol/sdk` client still in the field.
 */
import { Client as ClientV2, StreamableHTTPClientTransport as TransportV2 } from '@modelcontextprotocol/client';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as TransportV1 } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export type ClientKind = 'v2' | 'v2-modern' | 'v1';
export const CLIENT_KINDS: ClientKind[] = ['v2', 'v2-modern', 'v1'];

export interface Identity {
  key?: string;
  agent?: string;
  project?: string;
  /** Send the key in X-Legacy-Key instead of X-Svc-Key. */
  legacyHeader?: boolean;
}

export interface CallResult {
  isError: boolean;
  text: string;
  structured: Record<string, unknown>;
  content: { type: string; text?: string; resource?: Record<string, unknown> }[];
}

export interface McpSession {
  kind: ClientKind;
  call(name: string, args?: Record<string, unknown>): Promise<CallResult>;
  listTools(): Promise<
    {
      name: string;
      inputSchema: Record<string, unknown>;
      outputSchema?: Record<string, unknown>;
      annotations?: Record<string, unknown>;
    }[]
  >;
  listPrompts(): Promise<ListedPrompt[]>;
  /** prompts/get: the result as the client returns it (a protocol error rejects). */
  getPrompt(name: string, args?: Record<string, string>): Promise<PromptResult>;
  listResources(): Promise<{ uri: string; name: string; description?: string; mimeType?: string }[]>;
  readResource(uri: string): Promise<{ contents: { uri: string; mimeType?: string; text?: string }[] }>;
  protocolVersion(): string | undefined;
  close(): Promise<void>;
}

export interface ListedPrompt {
  name: string;
  title?: string;
  description?: string;
  arguments?: { name: string; description?: string; required?: boolean }[];
}

export interface PromptResult {
  description?: string;
  messages: { role: string; content: { type: string; text?: string } }[];
}

/** The id of the entry a write tool returned. */
export function entryId(r: CallResult): string {
  return (r.structured.entry as { id: string }).id;
}

export function headersFor(id: Identity): Record<string, string> {
  const h: Record<string, string> = {};
  if (id.key) h[id.legacyHeader ? 'X-Legacy-Key' : 'X-Svc-Key'] = id.key;
  if (id.agent) h['X-Svc-Agent'] = id.agent;
  if (id.project) h['X-Svc-Project'] = id.project;
  return h;
}

export async function connect(kind: ClientKind, mcpUrl: string, id: Identity): Promise<McpSession> {
  const requestInit = { headers: headersFor(id) };
  const info = { name: `cairn-test-${kind}`, version: '1.0.0' };
  if (kind === 'v1') {
    const client = new ClientV1(info);
    const transport = new TransportV1(new URL(mcpUrl), { requestInit });
    await client.connect(transport);
    await client.listTools(); // lets the client validate structured output against the schemas
    return wrap(
      kind,
      client as unknown as AnyClient,
      () => (transport as { protocolVersion?: string }).protocolVersion,
    );
  }
  const client = new ClientV2(
    info,
    kind === 'v2-modern' ? { versionNegotiation: { mode: { pin: '2026-07-28' } } } : {},
  );
  const transport = new TransportV2(new URL(mcpUrl), { requestInit });
  await client.connect(transport);
  await client.listTools();
  return wrap(
    kind,
    client as unknown as AnyClient,
    () =>
      (client as unknown as { getNegotiatedProtocolVersion?: () => string }).getNegotiatedProtocolVersion?.() ??
      (transport as { protocolVersion?: string }).protocolVersion,
  );
}

interface AnyClient {
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<Record<string, unknown>>;
  listTools(): Promise<{ tools: never[] }>;
  listPrompts(): Promise<{ prompts: never[] }>;
  getPrompt(params: { name: string; arguments?: Record<string, string> }): Promise<never>;
  listResources(): Promise<{ resources: never[] }>;
  readResource(params: { uri: string }): Promise<never>;
  close(): Promise<void>;
}

function wrap(kind: ClientKind, client: AnyClient, version: () => string | undefined): McpSession {
  return {
    kind,
    async call(name, args = {}) {
      const r = await client.callTool({ name, arguments: args });
      const content = (r.content ?? []) as CallResult['content'];
      return {
        isError: r.isError === true,
        text: content
          .filter((c) => c.type === 'text')
          .map((c) => c.text)
          .join('\n'),
        structured: (r.structuredContent ?? {}) as Record<string, unknown>,
        content,
      };
    },
    async listTools() {
      return (await client.listTools()).tools;
    },
    async listPrompts() {
      return (await client.listPrompts()).prompts;
    },
    getPrompt: (name, args) => client.getPrompt({ name, ...(args ? { arguments: args } : {}) }),
    async listResources() {
      return (await client.listResources()).resources;
    },
    readResource: (uri) => client.readResource({ uri }),
    protocolVersion: version,
    close: () => client.close(),
  };
}

/** A raw JSON-RPC POST to /mcp, for what clients hide (status codes, headers). */
export async function rawPost(mcpUrl: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-06-18',
      ...headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export function toolCall(name: string, args: Record<string, unknown>, id = 1) {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } };
}
