/**
 * A local stand-in for the OpenAI Responses API (`POST …/responses`, streamed as server-sent events),
 * for running the real Codex CLI against (a custom model provider with `wire_api = "responses"`).
 * Each request is recorded; the reply is what the test's `answer` returns for it: text, or a
 * function call. The stream is the one Codex reads (openai/codex codex-rs/codex-api/src/sse/responses.rs):
 * `response.created`, then per output item `response.output_item.added`, its deltas
 * (`response.output_text.delta`, `response.function_call_arguments.delta|done`) and
 * `response.output_item.done` carrying the whole item, then `response.completed` with the usage;
 * a stream that ends without `response.completed` is an error to Codex. A function call of an
 * MCP tool names its namespace (`mcp__<server>__`) and the tool apart, as the request's tools list
 * them. Other routes answer 404.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestText } from './request-text';

/** An input item: a message (role, content parts), a function call or its output. */
export interface InputItem {
  type: string;
  role?: string;
  content?: string | { type: string; text?: string }[];
  name?: string;
  namespace?: string;
  call_id?: string;
  arguments?: string;
  output?: unknown;
}

export interface ResponsesRequest {
  model: string;
  input: InputItem[];
  instructions?: string;
  tools?: { type: string; name?: string; description?: string; tools?: { type: string; name: string }[] }[];
  stream?: boolean;
}

export type ResponsesReply =
  | { text: string }
  | { call: { namespace?: string; name: string; arguments: Record<string, unknown> }; text?: string };

export interface ResponsesStandin {
  /** The base URL to give the provider (ends in /v1). */
  url: string;
  requests: ResponsesRequest[];
  close(): Promise<void>;
}

/** The text of a message item's content. */
export function contentText(item: InputItem): string {
  if (typeof item.content === 'string') return item.content;
  return (item.content ?? []).map((p) => p.text ?? '').join('\n');
}

/** Every text a request carries (instructions, messages, tool outputs), joined: what the model would read. */
export function inputText(r: ResponsesRequest, items = r.input): string {
  const parts: string[] = items === r.input && r.instructions ? [r.instructions] : [];
  for (const item of items) {
    if (item.type === 'message') parts.push(contentText(item));
    else if (item.type === 'function_call_output')
      parts.push(typeof item.output === 'string' ? item.output : JSON.stringify(item.output));
  }
  return parts.join('\n');
}

/** The function tools a request offers: top-level ones by name, a namespace's with its name. */
export function toolsOf(r: ResponsesRequest): { namespace?: string; name: string }[] {
  return (r.tools ?? []).flatMap((t) =>
    t.type === 'namespace'
      ? (t.tools ?? []).map((c) => ({ namespace: t.name, name: c.name }))
      : t.name
        ? [{ name: t.name }]
        : [],
  );
}

export async function startResponsesStandin(
  answer: (r: ResponsesRequest, n: number) => ResponsesReply,
): Promise<ResponsesStandin> {
  const requests: ResponsesRequest[] = [];
  let ids = 0;
  const server: Server = createServer(async (req, res) => {
    const raw = await requestText(req);
    const path = (req.url ?? '').split('?')[0] ?? '';
    if (req.method !== 'POST' || !path.endsWith('/responses')) {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{}');
      return;
    }
    const r = JSON.parse(raw) as ResponsesRequest;
    requests.push(r);
    const reply = answer(r, requests.length - 1);
    const n = ++ids;
    const id = `resp_standin_${n}`;
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    let seq = 0;
    const send = (type: string, data: Record<string, unknown>) =>
      res.write(`event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: seq++, ...data })}\n\n`);
    send('response.created', { response: { id, object: 'response', status: 'in_progress', model: r.model } });
    let index = 0;
    if (reply.text) {
      const item = { type: 'message', id: `msg_standin_${n}`, role: 'assistant', status: 'in_progress' };
      send('response.output_item.added', { output_index: index, item: { ...item, content: [] } });
      send('response.output_text.delta', {
        output_index: index,
        item_id: item.id,
        content_index: 0,
        delta: reply.text,
      });
      send('response.output_item.done', {
        output_index: index,
        item: { ...item, status: 'completed', content: [{ type: 'output_text', text: reply.text, annotations: [] }] },
      });
      index++;
    }
    if ('call' in reply) {
      const args = JSON.stringify(reply.call.arguments);
      const item = {
        type: 'function_call',
        id: `fc_standin_${n}`,
        call_id: `call_standin_${n}`,
        ...(reply.call.namespace ? { namespace: reply.call.namespace } : {}),
        name: reply.call.name,
      };
      send('response.output_item.added', {
        output_index: index,
        item: { ...item, arguments: '', status: 'in_progress' },
      });
      send('response.function_call_arguments.delta', { output_index: index, item_id: item.id, delta: args });
      send('response.function_call_arguments.done', { output_index: index, item_id: item.id, arguments: args });
      send('response.output_item.done', {
        output_index: index,
        item: { ...item, arguments: args, status: 'completed' },
      });
    }
    send('response.completed', {
      response: {
        id,
        object: 'response',
        status: 'completed',
        model: r.model,
        usage: {
          input_tokens: 100,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens: 20,
          output_tokens_details: { reasoning_tokens: 0 },
          total_tokens: 120,
        },
      },
    });
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
