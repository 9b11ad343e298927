import type { EmbeddingsSettings } from '../../src/config.js';
import type { FakeOpenAI } from './fake-openai.js';
import type { ApiResponse, TestKey } from './harness.js';

type Request = (method: string, url: string, options?: { key?: TestKey; body?: unknown }) => Promise<ApiResponse>;

/** Embedding settings that point at a fake provider on loopback. */
export const embeddingSettings = (provider: FakeOpenAI, timeoutMs = 2000): EmbeddingsSettings => ({
  baseUrl: provider.url,
  apiKey: undefined,
  model: 'fake-embed',
  timeoutMs,
  batchSize: 64,
});

/** Waits until the brain's queued embeddings are done (the worker runs off the request path). */
export async function vectorsSettled(request: Request, key: TestKey, brainId: string): Promise<void> {
  for (;;) {
    const res = await request('GET', `/v1/brains/${brainId}`, { key });
    if (res.body.data.pending_work.embeddings === 0) return;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
