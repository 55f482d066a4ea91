/**
 * Workers AI through its binding (`[ai] binding = "AI"` in wrangler.toml): the BGE text models,
 * with `cls` pooling (the more accurate one; its vectors are not comparable with `mean` pooling's,
 * so the pooling is part of the model's name here). Inside the models' limits whatever the text: at
 * most 100 texts per call, and 512 tokens per text, which 510 characters always fit (a WordPiece
 * token covers at least one character, and two tokens mark the ends).
 */
import { batches, checkVectors, type Embedder } from './provider';

const MAX_TEXTS = 100;
const MAX_CHARS = 510;

/** The part of the Workers AI binding used here. */
export interface AiBinding {
  run(model: string, input: { text: string[]; pooling: 'cls' }): Promise<unknown>;
}

/** Dimensions of the Workers AI embedding models Cairn knows. */
export const WORKERS_AI_MODELS: Record<string, number> = {
  '@cf/baai/bge-small-en-v1.5': 384,
  '@cf/baai/bge-base-en-v1.5': 768,
  '@cf/baai/bge-large-en-v1.5': 1024,
};

/** A model as Cairn names it: the pooling is part of the vector space. */
export function workersAiModel(model: string): string {
  return `${model}#cls`;
}

export function workersAiEmbedder(ai: AiBinding, model: string, dimensions: number): Embedder {
  return {
    model: workersAiModel(model),
    dimensions,
    async embed(texts, signal) {
      const out: number[][] = [];
      for (const batch of batches(
        texts.map((t) => [...t].slice(0, MAX_CHARS).join('')),
        MAX_TEXTS,
        Number.POSITIVE_INFINITY,
      )) {
        signal.throwIfAborted();
        const answer = await Promise.race([
          ai.run(model, { text: batch, pooling: 'cls' }),
          new Promise<never>((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
        ]);
        out.push(...checkVectors((answer as { data?: unknown }).data, batch.length, dimensions, `Workers AI ${model}`));
      }
      return out;
    },
  };
}
