/**
 * An OpenAI-compatible embeddings endpoint (`POST {url}/embeddings`): OpenAI itself, or any server
 * that speaks its API. Requests stay inside OpenAI's limits whatever the text: at most 2,048 inputs
 * and 300,000 tokens per request, 8,192 tokens per input. A token covers at least one byte of UTF-8,
 * so inputs are clipped to 8,000 bytes and requests to 300,000 bytes.
 */
import { batches, checkVectors, clip, type Embedder } from './provider';

/** Native dimensions of the OpenAI models Cairn knows. */
export const OPENAI_MODELS: Record<string, number> = {
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

const MAX_INPUTS = 2048;
const MAX_INPUT_BYTES = 8000;
const MAX_REQUEST_BYTES = 300_000;

export interface OpenAiOptions {
  /** Base URL, e.g. https://api.openai.com/v1 */
  url: string;
  /** Bearer token; omitted for servers that take none. */
  key: string | undefined;
  model: string;
  dimensions: number;
  /** Send `dimensions` in the request (models that can shorten their vectors). */
  sendDimensions: boolean;
  fetch?: typeof fetch;
}

export function openAiEmbedder(opts: OpenAiOptions): Embedder {
  const doFetch = opts.fetch ?? fetch;
  const endpoint = `${opts.url.replace(/\/+$/, '')}/embeddings`;
  return {
    model: opts.model,
    dimensions: opts.dimensions,
    async embed(texts, signal) {
      const out: number[][] = [];
      for (const batch of batches(
        texts.map((t) => clip(t, MAX_INPUT_BYTES)),
        MAX_INPUTS,
        MAX_REQUEST_BYTES,
      )) {
        const res = await doFetch(endpoint, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            ...(opts.key ? { authorization: `Bearer ${opts.key}` } : {}),
          },
          body: JSON.stringify({
            model: opts.model,
            input: batch,
            encoding_format: 'float',
            ...(opts.sendDimensions ? { dimensions: opts.dimensions } : {}),
          }),
          signal,
        });
        if (!res.ok) {
          const detail = await res.text().catch(() => '');
          throw new Error(`${endpoint} answered ${res.status}: ${detail.slice(0, 300)}`);
        }
        const body = (await res.json()) as { data?: { index?: number; embedding?: unknown }[] };
        const data = [...(body.data ?? [])].sort((a, b) => (a.index ?? 0) - (b.index ?? 0));
        out.push(
          ...checkVectors(
            data.map((d) => d.embedding),
            batch.length,
            opts.dimensions,
            endpoint,
          ),
        );
      }
      return out;
    },
  };
}
