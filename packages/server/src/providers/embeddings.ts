import type { EmbeddingsSettings } from '../config.js';
import { readEmbeddingAnswer } from './embedding-answer.js';
import { ProviderError } from './errors.js';
import { postJson } from './post-json.js';
import { l2Normalize } from './vectors.js';

export interface Embeddings {
  /** One per text, in the order of the texts, each of length `dimension` and L2-normalised. */
  vectors: Float32Array[];
  /** Tokens the provider counted for all the texts (0 when it does not say). */
  tokens: number;
}

/** Turns texts into vectors; any OpenAI-compatible `/embeddings` endpoint (design §10). */
export interface EmbeddingProvider {
  readonly model: string;
  /**
   * Numbers in each vector. Set from the start by probeEmbeddingProvider; a provider made by
   * createEmbeddingProvider without a dimension reads 0 until its first answer fixes it.
   */
  readonly dimension: number;
  /**
   * Rejects with a ProviderError when the provider fails, or with the signal's reason when
   * `signal` aborts. Vectors are unit length, so their dot product is their cosine.
   */
  embed(texts: string[], signal?: AbortSignal): Promise<Embeddings>;
}

/**
 * A provider for `POST {baseUrl}/embeddings`. Every answer must have the provider's dimension:
 * `dimension` when given (say, that of vectors already stored), else that of its first answer,
 * so vectors of two sizes can never be mixed.
 */
export function createEmbeddingProvider(settings: EmbeddingsSettings, dimension?: number): EmbeddingProvider {
  const url = `${settings.baseUrl.replace(/\/+$/, '')}/embeddings`;
  let fixedDimension = dimension;

  async function embedBatch(texts: string[], signal: AbortSignal | undefined): Promise<Embeddings> {
    const answer = await postJson({
      service: 'embeddings',
      url,
      apiKey: settings.apiKey,
      body: { model: settings.model, input: texts },
      timeoutMs: settings.timeoutMs,
      signal,
    });
    const read = readEmbeddingAnswer(answer, texts.length, fixedDimension);
    if (!read.ok)
      throw new ProviderError('error', `embeddings provider answered ${read.problem}`, { service: 'embeddings' });
    fixedDimension ??= read.dimension;
    return { vectors: read.vectors.map(l2Normalize), tokens: read.tokens };
  }

  return {
    model: settings.model,
    get dimension() {
      return fixedDimension ?? 0;
    },
    async embed(texts, signal) {
      const vectors: Float32Array[] = [];
      let tokens = 0;
      // One batch after another rather than all at once: a long input then spreads its load on
      // the provider's rate limit instead of meeting it in a burst of 429s.
      for (let start = 0; start < texts.length; start += settings.batchSize) {
        signal?.throwIfAborted();
        const batch = await embedBatch(texts.slice(start, start + settings.batchSize), signal);
        vectors.push(...batch.vectors);
        tokens += batch.tokens;
      }
      return { vectors, tokens };
    },
  };
}

const PROBE_TEXT = 'Snapgraph embeddings probe';

/**
 * At start: one short text through the provider, which proves the settings work and learns the
 * dimension. A failure keeps its kind (a provider still starting is `unavailable`, a wrong model
 * name an `error`) and says which endpoint and model it was, so the operator knows what to fix.
 */
export async function probeEmbeddingProvider(
  settings: EmbeddingsSettings,
  signal?: AbortSignal,
): Promise<EmbeddingProvider> {
  const provider = createEmbeddingProvider(settings);
  try {
    await provider.embed([PROBE_TEXT], signal);
  } catch (err) {
    if (!(err instanceof ProviderError)) throw err;
    throw new ProviderError(
      err.kind,
      `the embeddings provider at ${settings.baseUrl} (model "${settings.model}") failed its start-up probe: ${err.message}`,
      { service: 'embeddings', status: err.status, retryAfterSeconds: err.retryAfterSeconds, cause: err },
    );
  }
  return provider;
}
