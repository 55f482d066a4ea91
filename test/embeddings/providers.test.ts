/**
 * The embedding providers against stand-ins that enforce the real limits, the configuration that
 * picks them, and the breaker that keeps a failing provider from slowing recall.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/config';
import { createEmbedder } from '../../src/embeddings/index';
import { type OpenAiOptions, openAiEmbedder } from '../../src/embeddings/openai';
import { clip, type Embedder, resilient } from '../../src/embeddings/provider';
import { type AiBinding, workersAiEmbedder } from '../../src/embeddings/workers-ai';
import { type EmbeddingsServer, startEmbeddingsServer } from '../fixtures/embeddings-server';

const signal = () => AbortSignal.timeout(10_000);

describe('configuration', () => {
  it('leaves semantic recall off by default', () => {
    expect(parseConfig({}).embeddings).toBeNull();
  });

  it('knows the dimensions of the default models', () => {
    expect(parseConfig({ CAIRN_EMBEDDINGS: 'openai', CAIRN_EMBEDDINGS_KEY: 'k' }).embeddings).toEqual({
      provider: 'openai',
      url: 'https://api.openai.com/v1',
      key: 'k',
      model: 'text-embedding-3-small',
      dimensions: 1536,
      sendDimensions: false,
      timeoutMs: 3000,
    });
    expect(parseConfig({ CAIRN_EMBEDDINGS: 'workers-ai' }).embeddings).toMatchObject({
      provider: 'workers-ai',
      model: '@cf/baai/bge-base-en-v1.5',
      dimensions: 768,
    });
  });

  it('asks a model for fewer dimensions only when told to, and never more than an index takes', () => {
    expect(() => parseConfig({ CAIRN_EMBEDDINGS: 'openai', CAIRN_EMBEDDINGS_MODEL: 'text-embedding-3-large' })).toThrow(
      /CAIRN_EMBEDDINGS_DIMENSIONS.*2000/,
    );
    expect(
      parseConfig({
        CAIRN_EMBEDDINGS: 'openai',
        CAIRN_EMBEDDINGS_MODEL: 'text-embedding-3-large',
        CAIRN_EMBEDDINGS_DIMENSIONS: '1024',
      }).embeddings,
    ).toMatchObject({ dimensions: 1024, sendDimensions: true });
    expect(() => parseConfig({ CAIRN_EMBEDDINGS: 'openai', CAIRN_EMBEDDINGS_DIMENSIONS: '4096' })).toThrow(
      /CAIRN_EMBEDDINGS_DIMENSIONS: at most 2000/,
    );
  });

  it('names what to set for an unknown model, a wrong provider or platform', () => {
    expect(() => parseConfig({ CAIRN_EMBEDDINGS: 'openai', CAIRN_EMBEDDINGS_MODEL: 'nomic-embed-text' })).toThrow(
      'configuration: CAIRN_EMBEDDINGS_DIMENSIONS: required for model nomic-embed-text',
    );
    expect(() => parseConfig({ CAIRN_EMBEDDINGS: 'workers-ai', CAIRN_EMBEDDINGS_MODEL: '@cf/x/y' })).toThrow(
      /Workers AI embedding models are @cf\/baai\/bge-small-en-v1.5/,
    );
    expect(() => parseConfig({ CAIRN_EMBEDDINGS: 'sometimes' })).toThrow(/CAIRN_EMBEDDINGS/);
    expect(() => createEmbedder(parseConfig({ CAIRN_EMBEDDINGS: 'workers-ai' }).embeddings)).toThrow(
      /needs the Workers AI binding.*on Node use CAIRN_EMBEDDINGS=openai/,
    );
  });
});

describe('an OpenAI-compatible endpoint', () => {
  let emb: EmbeddingsServer;
  let embedder: Embedder;
  const make = (o: Partial<OpenAiOptions> = {}) =>
    openAiEmbedder({
      url: emb.url,
      key: emb.key,
      model: 'test-embedding-small',
      dimensions: 64,
      sendDimensions: false,
      ...o,
    });
  beforeAll(async () => {
    emb = await startEmbeddingsServer();
    embedder = make();
  });
  afterAll(() => emb?.close());

  it('returns one vector per text, in order, splitting requests at 2,048 inputs', async () => {
    const before = emb.requests;
    const texts = Array.from({ length: 2100 }, (_, i) => (i === 2099 ? 'an automobile' : `note ${i}`));
    const vectors = await embedder.embed(texts, signal());
    expect(vectors).toHaveLength(2100);
    expect(emb.requests - before).toBe(2);
    const [car] = await embedder.embed(['a car'], signal());
    const dot = (a: number[], b: number[]) => a.reduce((s, x, i) => s + x * (b[i] as number), 0);
    expect(dot(car as number[], vectors[2099] as number[])).toBeGreaterThan(0.99);
  });

  it('clips a long text to what one input may hold, at a character boundary', async () => {
    const long = 'é'.repeat(10_000); // 20,000 bytes; the endpoint refuses more than 8,192 per input
    const [v] = await embedder.embed([long], signal());
    expect(v).toHaveLength(64);
    const cut = clip(long, 8000);
    expect(new TextEncoder().encode(cut).length).toBe(8000);
    expect(cut).toBe('é'.repeat(4000));
    expect(clip('aé', 2)).toBe('a');
  });

  it('fails with the endpoint’s own message on a wrong key or model, and on vectors of another size', async () => {
    await expect(make({ key: 'nope' }).embed(['x'], signal())).rejects.toThrow(/answered 401: .*Incorrect API key/);
    await expect(make({ model: 'gpt-x' }).embed(['x'], signal())).rejects.toThrow(/answered 404: .*does not exist/);
    await expect(make({ dimensions: 32 }).embed(['x'], signal())).rejects.toThrow(/64 numbers; expected 32/);
  });

  it('asks for fewer dimensions where the model allows it', async () => {
    const short = make({ model: 'text-embedding-3-small', dimensions: 256, sendDimensions: true });
    expect((await short.embed(['x'], signal()))[0]).toHaveLength(256);
  });
});

describe('the Workers AI binding', () => {
  /** Behaves like env.AI for the BGE models: 100 texts per call, 512 tokens per text. */
  function fakeAi(calls: string[][]): AiBinding {
    return {
      async run(model, input) {
        if (model !== '@cf/baai/bge-small-en-v1.5') throw new Error(`AiError: No such model ${model}`);
        if (input.text.length > 100) throw new Error('AiError: too many inputs (max 100)');
        for (const t of input.text) {
          if (t.length + 2 > 512) throw new Error('AiError: input too long (max 512 tokens)');
        }
        calls.push(input.text);
        return { shape: [input.text.length, 384], data: input.text.map(() => Array(384).fill(0.05)) };
      },
    };
  }

  it('batches by 100 and clips each text to what 512 tokens always hold', async () => {
    const calls: string[][] = [];
    const embedder = workersAiEmbedder(fakeAi(calls), '@cf/baai/bge-small-en-v1.5', 384);
    const texts = Array.from({ length: 250 }, (_, i) => (i === 0 ? 'x'.repeat(5000) : `t${i}`));
    const vectors = await embedder.embed(texts, signal());
    expect(vectors).toHaveLength(250);
    expect(calls.map((c) => c.length)).toEqual([100, 100, 50]);
    expect(calls[0]?.[0]).toHaveLength(510);
    expect(embedder.model).toBe('@cf/baai/bge-small-en-v1.5#cls');
  });

  it('gives up when the call outlives its deadline', async () => {
    const never: AiBinding = { run: () => new Promise(() => {}) };
    const embedder = workersAiEmbedder(never, '@cf/baai/bge-small-en-v1.5', 384);
    await expect(embedder.embed(['x'], AbortSignal.timeout(50))).rejects.toThrow(/timeout|abort/i);
  });
});

describe('resilience', () => {
  it('answers null on a failure, skips the provider while the breaker is open, and tries again after', async () => {
    let clock = 0;
    let calls = 0;
    let healthy = false;
    const logged: string[] = [];
    const provider: Embedder = {
      model: 'm',
      dimensions: 2,
      async embed(texts) {
        calls++;
        if (!healthy) throw new Error('provider down');
        return texts.map(() => [1, 0]);
      },
    };
    const semantic = resilient(provider, { cooldownMs: 30_000, log: (m) => logged.push(m), now: () => clock });
    expect(await semantic.vectorOf('a')).toBeNull();
    expect(logged).toEqual(['embeddings from m failed; recall is lexical for the next 30 s']);
    healthy = true;
    clock = 29_999;
    expect(await semantic.vectorOf('a')).toBeNull();
    expect(calls).toBe(1);
    clock = 30_000;
    expect(await semantic.vectorOf('a')).toEqual([1, 0]);
    expect(calls).toBe(2);
  });

  it('does not wait past its deadline', async () => {
    const slow: Embedder = {
      model: 'm',
      dimensions: 2,
      embed: (_texts, signal) =>
        new Promise((_, reject) => signal.addEventListener('abort', () => reject(signal.reason))),
    };
    const started = Date.now();
    expect(await resilient(slow, { timeoutMs: 100, log: () => {} }).vectorOf('a')).toBeNull();
    expect(Date.now() - started).toBeLessThan(1000);
  });
});
