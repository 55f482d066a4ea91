/**
 * A local stand-in for the Anthropic Messages API (`POST /v1/messages`, streamed as server-sent
 * events, as the real one streams them), for running the real Claude Code CLI against
 * (ANTHROPIC_BASE_URL). Each request is recorded; the reply is what the test's `answer` returns for
 * it: text, or a tool call. Other routes (token counting, telemetry) answer 404 or an empty JSON.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { requestText } from './request-text';

export interface ModelRequest {
  model: string;
  system?: string | { type: string; text: string }[];
  messages: { role: string; content: string | Record<string, unknown>[] }[];
  tools?: { name: string; description?: string; input_schema?: unknown }[];
  stream?: boolean;
  max_tokens?: number;
}

export type Reply = { text: string } | { tool: string; input: Record<string, unknown>; text?: string };

export interface ModelStandin {
  url: string;
  requests: ModelRequest[];
  close(): Promise<void>;
}

/** Every text a request carries (system, messages, tool results), joined: what the model would read. */
export function textOf(r: ModelRequest): string {
  const parts: string[] = [];
  const walk = (v: unknown) => {
    if (typeof v === 'string') parts.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) if (k === 'text' || k === 'content') walk(x);
    }
  };
  walk(r.system);
  walk(r.messages);
  return parts.join('\n');
}

export async function startModelStandin(answer: (r: ModelRequest, n: number) => Reply): Promise<ModelStandin> {
  const requests: ModelRequest[] = [];
  let ids = 0;
  const server: Server = createServer(async (req, res) => {
    const raw = await requestText(req);
    const path = (req.url ?? '').split('?')[0];
    if (req.method !== 'POST' || path !== '/v1/messages') {
      res.writeHead(path?.startsWith('/v1/messages/count_tokens') ? 200 : 404, { 'content-type': 'application/json' });
      res.end(path?.startsWith('/v1/messages/count_tokens') ? '{"input_tokens": 100}' : '{}');
      return;
    }
    const r = JSON.parse(raw) as ModelRequest;
    requests.push(r);
    const reply = answer(r, requests.length - 1);
    const id = `msg_standin_${++ids}`;
    const blocks: Record<string, unknown>[] = [];
    if ('text' in reply && reply.text) blocks.push({ type: 'text', text: reply.text });
    if ('tool' in reply)
      blocks.push({ type: 'tool_use', id: `toolu_standin_${ids}`, name: reply.tool, input: reply.input });
    const stop = 'tool' in reply ? 'tool_use' : 'end_turn';
    const usage = { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
    if (!r.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          id,
          type: 'message',
          role: 'assistant',
          model: r.model,
          content: blocks,
          stop_reason: stop,
          stop_sequence: null,
          usage,
        }),
      );
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const send = (event: string, data: Record<string, unknown>) =>
      res.write(`event: ${event}\ndata: ${JSON.stringify({ type: event, ...data })}\n\n`);
    send('message_start', {
      message: {
        id,
        type: 'message',
        role: 'assistant',
        model: r.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage,
      },
    });
    blocks.forEach((b, index) => {
      if (b.type === 'text') {
        send('content_block_start', { index, content_block: { type: 'text', text: '' } });
        send('content_block_delta', { index, delta: { type: 'text_delta', text: b.text } });
      } else {
        send('content_block_start', { index, content_block: { type: 'tool_use', id: b.id, name: b.name, input: {} } });
        send('content_block_delta', {
          index,
          delta: { type: 'input_json_delta', partial_json: JSON.stringify(b.input) },
        });
      }
      send('content_block_stop', { index });
    });
    send('message_delta', { delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 20 } });
    send('message_stop', {});
    res.end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
