/** Builds the configured embedding provider (docs/self-host.md, "Semantic recall"). */
import { openAiEmbedder } from './openai';
import { type Embedder, spaceName } from './provider';
import { type AiBinding, workersAiEmbedder, workersAiModel } from './workers-ai';

/** The provider configured (CAIRN_EMBEDDINGS_*, parsed in src/config.ts). */
export type EmbeddingsConfig = { timeoutMs: number } & (
  | {
      provider: 'openai';
      url: string;
      key: string | undefined;
      model: string;
      dimensions: number;
      /** Ask the model for fewer dimensions than its own (OpenAI's text-embedding-3 models). */
      sendDimensions: boolean;
    }
  | { provider: 'workers-ai'; model: string; dimensions: number }
);

/** Where a configuration's vectors live: the model name they are stored under, and their size. */
export function vectorSpace(config: EmbeddingsConfig | null): { model: string; dimensions: number } | undefined {
  if (!config) return undefined;
  const model = config.provider === 'workers-ai' ? workersAiModel(config.model) : config.model;
  return { model: spaceName(model, config.dimensions), dimensions: config.dimensions };
}

/** The configured provider, on this platform's binding or fetch; null when semantic recall is off. */
export function createEmbedder(
  config: EmbeddingsConfig | null,
  platform: { ai?: AiBinding | undefined; fetch?: typeof fetch } = {},
): Embedder | null {
  if (!config) return null;
  if (config.provider === 'workers-ai') {
    if (!platform.ai) {
      throw new Error(
        'configuration: CAIRN_EMBEDDINGS=workers-ai needs the Workers AI binding (`[ai] binding = "AI"` in wrangler.toml); on Node use CAIRN_EMBEDDINGS=openai',
      );
    }
    return workersAiEmbedder(platform.ai, config.model, config.dimensions);
  }
  return openAiEmbedder({ ...config, fetch: platform.fetch });
}
