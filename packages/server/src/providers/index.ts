/**
 * Outside services that Snapgraph calls (design §10): what the domain, the background queue and
 * the HTTP error handler need of them, and nothing of how they are called.
 */
export type { EmbeddingsSettings, LlmSettings } from '../config.js';
export {
  AnswerTooLong,
  createChatProvider,
  type ChatProvider,
  type ChatUsage,
  type StructuredRequest,
} from './chat.js';
export {
  createEmbeddingProvider,
  probeEmbeddingProvider,
  type EmbeddingProvider,
  type Embeddings,
} from './embeddings.js';
export {
  ProviderError,
  providerAppError,
  type ProviderErrorOptions,
  type ProviderFailureKind,
  type ProviderService,
} from './errors.js';
export { bufferToVector, cosineOfNormalized, dot, l2Normalize, vectorToBuffer } from './vectors.js';
