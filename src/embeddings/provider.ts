/**
 * Semantic recall's one dependency: a model that turns text into vectors. Two providers implement
 * it (an OpenAI-compatible endpoint, the Workers AI binding); `resilient` wraps either so that a
 * slow or failing provider costs recall its semantic half, never an answer.
 */

import type { Semantic } from '../domain/ports';

export interface Embedder {
  /** Names the vector space: vectors of different models are never compared. */
  readonly model: string;
  readonly dimensions: number;
  /** One vector per text, in order; throws when any is missing or malformed. */
  embed(texts: string[], signal: AbortSignal): Promise<number[][]>;
}

export interface ResilienceOptions {
  /** Longest wait for one embedding, in ms. */
  timeoutMs?: number;
  /** After a failure, how long calls skip the provider, in ms. */
  cooldownMs?: number;
  log: (message: string, err?: unknown) => void;
  now?: () => number;
}

/**
 * A provider behind a deadline and a breaker: a call that fails or times out answers null (recall
 * goes on lexically) and opens the breaker, so that for the next `cooldownMs` no call waits on a
 * provider that is down. The failure is logged once per opening.
 */
export function resilient(embedder: Embedder, opts: ResilienceOptions): Semantic {
  const timeoutMs = opts.timeoutMs ?? 3000;
  const cooldownMs = opts.cooldownMs ?? 30_000;
  const now = opts.now ?? Date.now;
  let closedAt = 0;
  return {
    model: spaceName(embedder.model, embedder.dimensions),
    async vectorOf(text) {
      if (now() < closedAt) return null;
      try {
        const [vector] = await embedder.embed([text], AbortSignal.timeout(timeoutMs));
        return vector ?? null;
      } catch (err) {
        closedAt = now() + cooldownMs;
        opts.log(
          `embeddings from ${embedder.model} failed; recall is lexical for the next ${Math.round(cooldownMs / 1000)} s`,
          err,
        );
        return null;
      }
    },
  };
}

/**
 * The name a configuration's vectors are stored and searched under: the model and the vector
 * size, so that vectors of another model, or of the same model asked for another size, are never
 * compared (each gets its own index).
 */
export function spaceName(model: string, dimensions: number): string {
  return `${model}/${dimensions}`;
}

/** Checks a provider's answer: `count` vectors of `dimensions` finite numbers. */
export function checkVectors(vectors: unknown, count: number, dimensions: number, source: string): number[][] {
  if (!Array.isArray(vectors) || vectors.length !== count) {
    throw new Error(`${source} returned ${Array.isArray(vectors) ? vectors.length : 'no'} vectors for ${count} texts`);
  }
  for (const v of vectors) {
    if (!Array.isArray(v) || v.length !== dimensions || !v.every((x) => typeof x === 'number' && Number.isFinite(x))) {
      throw new Error(
        `${source} returned a vector of ${Array.isArray(v) ? v.length : 'no'} numbers; expected ${dimensions} (CAIRN_EMBEDDINGS_DIMENSIONS)`,
      );
    }
  }
  return vectors as number[][];
}

/** The first `maxBytes` of a text in UTF-8, cut at a character boundary. */
export function clip(text: string, maxBytes: number): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= maxBytes) return text;
  let end = maxBytes;
  while (end > 0 && ((bytes[end] ?? 0) & 0xc0) === 0x80) end--;
  return new TextDecoder().decode(bytes.subarray(0, end));
}

/** Splits texts into batches of at most `maxItems` texts and `maxBytes` UTF-8 bytes. */
export function batches(texts: string[], maxItems: number, maxBytes: number): string[][] {
  const out: string[][] = [];
  let cur: string[] = [];
  let size = 0;
  for (const t of texts) {
    const n = new TextEncoder().encode(t).length;
    if (cur.length && (cur.length >= maxItems || size + n > maxBytes)) {
      out.push(cur);
      cur = [];
      size = 0;
    }
    cur.push(t);
    size += n;
  }
  if (cur.length) out.push(cur);
  return out;
}
